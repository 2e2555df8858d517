// Payees: the merchant's payees, newest first, with a form to add one; a payee's page with its bank accounts, a form
// to add an account, and a link to its payouts.
import { eachPayee, type MerchantComponents, merchantEnums, unwrap } from '@payout-service/client';
import { useState } from 'preact/hooks';
import { useMerchant } from '../context.js';
import { Link, navigate } from '../router.js';
import { useAction } from '../ui/action.js';
import { Choice, Field, optional, useFields } from '../ui/field.js';
import { useLoad } from '../ui/load.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { isNotFound, MissingPage, ProblemNote } from '../ui/problem.js';
import { Badge, Time } from '../ui/values.js';

export function PayeesPage() {
  const { merchant } = useMerchant();
  const pager = usePager(() => eachPayee(merchant, { pageSize, sortProperty: 'createdOn', isDescending: true }), [merchant]);
  return (
    <Page title="Payees">
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Email address</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pager.items.map((p) => (
            <tr key={p.id}>
              <td>
                <Link href={`/payees/${p.id}`}>{p.id}</Link>
              </td>
              <td>{p.name}</td>
              <td>{p.payeeType}</td>
              <td>{p.EmailAddress}</td>
              <td>
                <Time iso={p.createdOn} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <PagerFooter pager={pager} noun={['payee', 'payees']} />
      <Section title="Add a payee" id="payee-create">
        <CreatePayee />
      </Section>
    </Page>
  );
}

type PayeeType = MerchantComponents['schemas']['PayeeType'];

/** A new payee: a business also needs its tax id and phone number (the contract's rule, which the types hold). */
function CreatePayee() {
  const { merchant } = useMerchant();
  const [type, setType] = useState<PayeeType>('individual');
  const [f, set] = useFields({ name: '', email: '', phone: '', taxId: '', line: '', city: '', state: '', postalCode: '', country: 'US' });
  const action = useAction(() => {
    const common = {
      name: f.name,
      EmailAddress: f.email,
      address: { addressLine: f.line, city: f.city, state: f.state, postalCode: f.postalCode, country: f.country },
    };
    const body =
      type === 'business'
        ? { ...common, payeeType: 'business' as const, taxId: f.taxId, phoneNumber: f.phone }
        : { ...common, payeeType: 'individual' as const, phoneNumber: optional(f.phone) };
    return unwrap(merchant.POST('/v1/payees', { body }));
  });
  return (
    <form
      class="form"
      aria-label="Add a payee"
      onSubmit={async (e) => {
        e.preventDefault();
        const made = (await action.run())?.value;
        if (made) navigate(`/payees/${made.id}`);
      }}
    >
      <Choice id="payee-type" label="Type" value={type} options={merchantEnums.PayeeType} onValue={(v) => setType(v as PayeeType)} />
      <Field id="payee-name" label="Name" required value={f.name} onValue={(v) => set('name', v)} />
      <Field id="payee-email" label="Email address" type="email" required value={f.email} onValue={(v) => set('email', v)} />
      <Field
        id="payee-phone"
        label={type === 'business' ? 'Phone number (E.164)' : 'Phone number (E.164, optional)'}
        type="tel"
        placeholder="+12125550143"
        required={type === 'business'}
        value={f.phone}
        onValue={(v) => set('phone', v)}
      />
      {type === 'business' ? <Field id="payee-tax-id" label="Tax id" required value={f.taxId} onValue={(v) => set('taxId', v)} /> : null}
      <Field id="payee-line" label="Street address" required value={f.line} onValue={(v) => set('line', v)} />
      <Field id="payee-city" label="City" required value={f.city} onValue={(v) => set('city', v)} />
      <Field id="payee-state" label="State or region" required value={f.state} onValue={(v) => set('state', v)} />
      <Field id="payee-postal-code" label="Postal code" required value={f.postalCode} onValue={(v) => set('postalCode', v)} />
      <Field id="payee-country" label="Country (ISO code)" required value={f.country} onValue={(v) => set('country', v)} />
      <button type="submit" disabled={action.busy}>
        Add the payee
      </button>
      {action.error ? <ProblemNote error={action.error} /> : null}
    </form>
  );
}

type AccountType = MerchantComponents['schemas']['PayeeAccountRequest']['type'];

/** A new account of a payee: a US bank account (routing and account number), or an IBAN. */
function AddAccount({ id, holder, onAdded }: { id: number; holder: string; onAdded: () => void }) {
  const { merchant } = useMerchant();
  const [type, setType] = useState<AccountType>('BANK_ACCOUNT');
  const [f, set, reset] = useFields({ holder, bank: '', routing: '', number: '', kind: 'CHECKINGS', iban: '', currency: 'USD' });
  const action = useAction(() => {
    const body =
      type === 'BANK_ACCOUNT'
        ? {
            type: 'BANK_ACCOUNT' as const,
            accountHolderName: f.holder,
            bankName: f.bank,
            routingNumber: f.routing,
            accountNumber: f.number,
            accountType: f.kind as 'CHECKINGS' | 'SAVINGS',
            Currency: optional(f.currency) ?? null,
          }
        : { type: 'IBAN' as const, accountHolderName: f.holder, IBAN: f.iban, Currency: optional(f.currency) ?? null };
    return unwrap(merchant.POST('/v1/payees/{id}/accounts', { params: { path: { id } }, body }));
  });
  return (
    <form
      class="form"
      aria-label="Add an account"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await action.run()) {
          reset();
          onAdded();
        }
      }}
    >
      <Choice id="account-type" label="Kind" value={type} options={['BANK_ACCOUNT', 'IBAN']} onValue={(v) => setType(v as AccountType)} />
      <Field id="account-holder" label="Account holder" required value={f.holder} onValue={(v) => set('holder', v)} />
      {type === 'BANK_ACCOUNT' ? (
        <>
          <Field id="account-bank" label="Bank name" required value={f.bank} onValue={(v) => set('bank', v)} />
          <Field
            id="account-routing"
            label="Routing number"
            required
            inputMode="numeric"
            value={f.routing}
            onValue={(v) => set('routing', v)}
          />
          <Field
            id="account-number"
            label="Account number"
            required
            inputMode="numeric"
            value={f.number}
            onValue={(v) => set('number', v)}
          />
          <Choice
            id="account-kind"
            label="Checking or savings"
            value={f.kind}
            options={['CHECKINGS', 'SAVINGS']}
            onValue={(v) => set('kind', v)}
          />
        </>
      ) : (
        <Field id="account-iban" label="IBAN" required value={f.iban} onValue={(v) => set('iban', v)} />
      )}
      <Field id="account-currency" label="Currency (ISO code)" value={f.currency} onValue={(v) => set('currency', v)} />
      <button type="submit" disabled={action.busy}>
        Add the account
      </button>
      {action.result ? (
        <p role="status" class="notice">
          Account {action.result.PayeeAccountId} added.
        </p>
      ) : null}
      {action.error ? <ProblemNote error={action.error} /> : null}
    </form>
  );
}

export function PayeePage({ id }: { id: number }) {
  const { merchant } = useMerchant();
  const payee = useLoad(() => unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id } } })), [merchant, id]);
  const [version, setVersion] = useState(0);
  const accounts = useLoad(() => unwrap(merchant.GET('/v1/payees/{id}/accounts', { params: { path: { id } } })), [merchant, id, version]);
  const p = payee.value;
  if (isNotFound(payee.error))
    return (
      <MissingPage title="No such payee" error={payee.error}>
        <Link href="/payees">All payees</Link>
      </MissingPage>
    );
  return (
    <Page title={p ? p.name : `Payee ${id}`}>
      <p>
        <Link href="/payees">All payees</Link> · <Link href={`/payouts?payee=${id}`}>This payee's payouts</Link>
      </p>
      {payee.error ? <ProblemNote error={payee.error} /> : null}
      {p ? (
        <dl class="facts">
          <dt>Id</dt>
          <dd>{p.id}</dd>
          <dt>Type</dt>
          <dd>{p.payeeType}</dd>
          <dt>Email address</dt>
          <dd>{p.EmailAddress}</dd>
          <dt>Phone</dt>
          <dd>{p.phoneNumber ?? '—'}</dd>
          <dt>Address</dt>
          <dd>{[p.address.addressLine, p.address.city, p.address.state, p.address.postalCode, p.address.country].join(', ')}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={p.createdOn} />
          </dd>
        </dl>
      ) : null}
      <Section title="Accounts" id="payee-accounts">
        {accounts.error ? <ProblemNote error={accounts.error} /> : null}
        <table>
          <thead>
            <tr>
              <th scope="col">Account id</th>
              <th scope="col">Type</th>
              <th scope="col">Bank</th>
              <th scope="col">Number</th>
              <th scope="col">Currency</th>
              <th scope="col">Active</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {(accounts.value ?? []).map((a) => (
              <tr key={a.payeeAccountId}>
                <td>{a.payeeAccountId}</td>
                <td>{a.type}</td>
                <td>{a.bankName ?? '—'}</td>
                <td>
                  <code>{a.accountNumber ?? a.IBAN ?? '—'}</code>
                </td>
                <td>{a.Currency ?? '—'}</td>
                <td>
                  <Badge value={a.active ? 'active' : 'disabled'} />
                </td>
                <td>
                  <Time iso={a.createdOn} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="pager-status" role="status">
          {accounts.loading ? 'Loading accounts…' : accounts.value?.length === 0 ? 'No accounts.' : ''}
        </p>
      </Section>
      {p ? (
        <Section title="Add an account" id="payee-account-create">
          <AddAccount id={id} holder={p.name} onAdded={() => setVersion((v) => v + 1)} />
        </Section>
      ) : null}
    </Page>
  );
}
