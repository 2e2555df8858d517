// Payees: the merchant's payees, newest first, and a payee's page with its bank accounts and a link to its payouts.
import { eachPayee, unwrap } from '@payout-service/client';
import { useMerchant } from '../context.js';
import { Link } from '../router.js';
import { useLoad } from '../ui/load.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { ProblemNote } from '../ui/problem.js';
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
    </Page>
  );
}

export function PayeePage({ id }: { id: number }) {
  const { merchant } = useMerchant();
  const payee = useLoad(() => unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id } } })), [merchant, id]);
  const accounts = useLoad(() => unwrap(merchant.GET('/v1/payees/{id}/accounts', { params: { path: { id } } })), [merchant, id]);
  const p = payee.value;
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
    </Page>
  );
}
