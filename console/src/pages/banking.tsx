// Banking (group D): the merchant's businesses, a business's accounts with their balances, an account's transfers
// and ledger entries, and a transfer's page with its entries, its events and, in the sandbox, its test helpers.
import {
  type BankingComponents,
  bankingEnums,
  eachAccountLedgerEntry,
  eachAccountTransfer,
  eachBusiness,
  eachBusinessAccount,
  merchantEnums,
  unwrap,
} from '@payout-service/client';
import { useMemo, useState } from 'preact/hooks';
import { eventsAbout, eventsOf } from '../api/events.js';
import { merchantSimulations } from '../api/simulations.js';
import { isSandbox, useConsole, useMerchant } from '../context.js';
import { Link } from '../router.js';
import { useAction } from '../ui/action.js';
import { formatAmount } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { isNotFound, MissingPage, ProblemNote } from '../ui/problem.js';
import { SimulationResult } from '../ui/simulation-result.js';
import { Badge, Time } from '../ui/values.js';
import { EventList } from './events.js';

type B = BankingComponents['schemas'];

export function BusinessesPage() {
  const { banking } = useMerchant();
  const pager = usePager(() => eachBusiness(banking, { PageSize: pageSize }), [banking]);
  return (
    <Page title="Banking">
      <p class="lead">Your businesses, their deposit accounts, balances, ledger entries and transfers.</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Business</th>
            <th scope="col">Entity</th>
            <th scope="col">Status</th>
            <th scope="col">Verification</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pager.items.map((b) => (
            <tr key={b.id}>
              <td>
                <Link href={`/banking/businesses/${b.id}`}>{b.legalName}</Link>
              </td>
              <td>{b.entityType}</td>
              <td>
                <Badge value={b.status} />
              </td>
              <td>
                <Badge value={b.verificationStatus} />
              </td>
              <td>
                <Time iso={b.createdOn} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <PagerFooter pager={pager} noun={['business', 'businesses']} />
    </Page>
  );
}

export function BusinessPage({ id }: { id: number }) {
  const { banking } = useMerchant();
  const business = useLoad(() => unwrap(banking.GET('/finance/api/v1/business/{id}', { params: { path: { id } } })), [banking, id]);
  const accounts = usePager(() => eachBusinessAccount(banking, id, { PageSize: pageSize }), [banking, id]);
  const b = business.value;
  if (isNotFound(business.error))
    return (
      <MissingPage title="No such business" error={business.error}>
        <Link href="/banking">All businesses</Link>
      </MissingPage>
    );
  return (
    <Page title={b ? b.legalName : `Business ${id}`}>
      <p>
        <Link href="/banking">All businesses</Link>
      </p>
      {business.error ? <ProblemNote error={business.error} /> : null}
      {b ? (
        <dl class="facts">
          <dt>Id</dt>
          <dd>{b.id}</dd>
          <dt>Trading as</dt>
          <dd>{b.dbaName ?? '—'}</dd>
          <dt>Status</dt>
          <dd>
            <Badge value={b.status} />
          </dd>
          <dt>Verification</dt>
          <dd>
            <Badge value={b.verificationStatus} />
          </dd>
          <dt>Email address</dt>
          <dd>{b.email}</dd>
        </dl>
      ) : null}
      <Section title="Accounts" id="business-accounts">
        <table>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Type</th>
              <th scope="col">Number</th>
              <th scope="col">Status</th>
              <th scope="col" class="number">
                Available
              </th>
              <th scope="col" class="number">
                Ledger
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.items.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link href={`/banking/accounts/${a.id}`}>{a.accountName}</Link>
                </td>
                <td>{a.accountType}</td>
                <td>
                  <code>{a.accountNumber}</code>
                </td>
                <td>
                  <Badge value={a.status} />
                </td>
                <td class="number">{formatAmount(a.balance.available, a.currency)}</td>
                <td class="number">{formatAmount(a.balance.ledger, a.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <PagerFooter pager={accounts} noun={['account', 'accounts']} />
      </Section>
    </Page>
  );
}

export function AccountPage({ id }: { id: number }) {
  const { banking } = useMerchant();
  const balance = useLoad(
    () => unwrap(banking.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId: id } } })),
    [banking, id],
  );
  const [draft, setDraft] = useState({ type: '', status: '' });
  const [filters, setFilters] = useState<{ Type?: B['TransferType'][]; Status?: B['TransferStatus'][] }>({});
  const transfers = usePager(() => eachAccountTransfer(banking, id, { ...filters, PageSize: pageSize }), [banking, id, filters]);
  const entries = usePager(() => eachAccountLedgerEntry(banking, id, { PageSize: pageSize }), [banking, id]);
  if (isNotFound(balance.error))
    return (
      <MissingPage title="No such account" error={balance.error}>
        <Link href="/banking">All businesses</Link>
      </MissingPage>
    );
  return (
    <Page title={`Account ${id}`}>
      <p>
        <Link href="/banking">All businesses</Link>
      </p>
      {balance.error ? <ProblemNote error={balance.error} /> : null}
      {balance.value ? (
        <dl class="facts">
          <dt>Available</dt>
          <dd>{formatAmount(balance.value.available, balance.value.currency)}</dd>
          <dt>Ledger</dt>
          <dd>{formatAmount(balance.value.ledger, balance.value.currency)}</dd>
          <dt>As of</dt>
          <dd>
            <Time iso={balance.value.asOf} />
          </dd>
        </dl>
      ) : null}
      <Section title="Transfers" id="account-transfers">
        <form
          class="filters"
          aria-label="Filter transfers"
          onSubmit={(e) => {
            e.preventDefault();
            setFilters({
              Type: draft.type ? [draft.type as B['TransferType']] : undefined,
              Status: draft.status ? [draft.status as B['TransferStatus']] : undefined,
            });
          }}
        >
          <div>
            <label for="transfer-type">Type</label>
            <select id="transfer-type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}>
              <option value="">Any type</option>
              {bankingEnums.TransferType.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="transfer-status">Status</label>
            <select id="transfer-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}>
              <option value="">Any status</option>
              {bankingEnums.TransferStatus.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Filter</button>
        </form>
        <table>
          <thead>
            <tr>
              <th scope="col">Transfer</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col" class="number">
                Amount
              </th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {transfers.items.map((t) => (
              <tr key={t.id}>
                <td>
                  <Link href={`/banking/transfers/${t.id}`}>{t.id}</Link>
                </td>
                <td>{t.type}</td>
                <td>
                  <Badge value={t.status} />
                </td>
                <td class="number">{formatAmount(t.amount, t.currency)}</td>
                <td>{t.from.name}</td>
                <td>{t.to.name}</td>
                <td>
                  <Time iso={t.createdOn} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <PagerFooter pager={transfers} noun={['transfer', 'transfers']} />
      </Section>
      <Section title="Ledger entries" id="account-ledger">
        <table>
          <thead>
            <tr>
              <th scope="col">Entry</th>
              <th scope="col">Transfer</th>
              <th scope="col">Direction</th>
              <th scope="col" class="number">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Posted</th>
            </tr>
          </thead>
          <tbody>
            {entries.items.map((e) => (
              <tr key={e.id}>
                <td>{e.id}</td>
                <td>
                  <Link href={`/banking/transfers/${e.transferId}`}>{e.transferId}</Link>
                </td>
                <td>{e.direction}</td>
                <td class="number">{formatAmount(e.amount, e.currency)}</td>
                <td>
                  <Badge value={e.status} />
                </td>
                <td>
                  <Time iso={e.createdOn} />
                </td>
                <td>
                  <Time iso={e.postedOn} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <PagerFooter pager={entries} noun={['ledger entry', 'ledger entries']} />
      </Section>
    </Page>
  );
}

const transferEventTypes = merchantEnums.EventType.filter((t) => t.startsWith('transfer.'));

export function TransferPage({ id }: { id: number }) {
  const { session, clients } = useConsole();
  const { banking } = useMerchant();
  const [version, setVersion] = useState(0);
  const transfer = useLoad(
    () => unwrap(banking.GET('/finance/api/v1/transaction/{transferId}', { params: { path: { transferId: id } } })),
    [banking, id, version],
  );
  const events = useMemo(() => eventsOf(clients), [clients]);
  // The transfer's events, among the latest transfer events (the events list has no transfer filter).
  const history = useLoad(
    () => eventsAbout(events, { types: transferEventTypes }, (e) => (e as { transfer?: { id?: number } }).transfer?.id === id),
    [events, id, version],
  );
  const t = transfer.value;
  if (isNotFound(transfer.error))
    return (
      <MissingPage title="No such transfer" error={transfer.error}>
        <Link href="/banking">All businesses</Link>
      </MissingPage>
    );
  return (
    <Page title={`Transfer ${id}`}>
      {transfer.error ? <ProblemNote error={transfer.error} /> : null}
      {t ? (
        <>
          <p>
            <Link href={`/banking/accounts/${t.accountBalance.accountId}`}>Its account</Link>
          </p>
          <dl class="facts">
            <dt>Type</dt>
            <dd>{t.type}</dd>
            <dt>Status</dt>
            <dd>
              <Badge value={t.status} />
            </dd>
            <dt>Amount</dt>
            <dd>{formatAmount(t.amount, t.currency)}</dd>
            <dt>From</dt>
            <dd>
              {t.from.name} <code>{t.from.accountNumber}</code>
            </dd>
            <dt>To</dt>
            <dd>
              {t.to.name} <code>{t.to.accountNumber}</code>
            </dd>
            <dt>Description</dt>
            <dd>{t.description}</dd>
            {t.returnCode ? (
              <>
                <dt>Return code</dt>
                <dd>{t.returnCode}</dd>
              </>
            ) : null}
            <dt>Created</dt>
            <dd>
              <Time iso={t.createdOn} />
            </dd>
          </dl>
          <Section title="Ledger entries" id="transfer-entries">
            <table>
              <thead>
                <tr>
                  <th scope="col">Ledger account</th>
                  <th scope="col">Direction</th>
                  <th scope="col" class="number">
                    Amount
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {t.ledgerEntries.map((e, i) => (
                  <tr key={i}>
                    <td>{e.ledgerAccount}</td>
                    <td>{e.direction}</td>
                    <td class="number">{formatAmount(e.amount, e.currency)}</td>
                    <td>
                      <Badge value={e.status} />
                    </td>
                    <td>
                      <Time iso={e.createdOn} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        </>
      ) : null}
      <Section title="Events" id="transfer-events">
        {history.error ? <ProblemNote error={history.error} /> : null}
        <EventList events={history.value ?? []} />
      </Section>
      {isSandbox(session) ? (
        <Section title="Sandbox" id="transfer-sandbox">
          <TransferSimulations transferId={id} onDone={() => setVersion((v) => v + 1)} />
        </Section>
      ) : null}
    </Page>
  );
}

/** The transfer test helpers: settle (complete or fail) one in flight, return a completed one. */
export function TransferSimulations({ transferId, onDone }: { transferId: number; onDone?: () => void }) {
  const { clients } = useConsole();
  const simulations = useMemo(() => (clients.kind === 'merchant' ? merchantSimulations(clients) : undefined), [clients]);
  const [returnCode, setReturnCode] = useState('R01');
  const action = useAction(
    async (run: () => Promise<{ result: B['Transfer']; event: Parameters<typeof SimulationResult>[0]['event'] }>) => {
      const done = await run();
      onDone?.();
      return done;
    },
  );
  if (!simulations) return null;
  return (
    <div class="simulations">
      <div class="inline-form">
        <button
          type="button"
          disabled={action.busy}
          onClick={() => void action.run(() => simulations.settleTransfer(transferId, 'completed'))}
        >
          Settle: completed
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() => void action.run(() => simulations.settleTransfer(transferId, 'failed'))}
        >
          Settle: failed
        </button>
      </div>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(() => simulations.returnTransfer(transferId, returnCode));
        }}
      >
        <label for={`transfer-return-${transferId}`}>Return code</label>
        <input
          id={`transfer-return-${transferId}`}
          value={returnCode}
          required
          size={4}
          onInput={(e) => setReturnCode(e.currentTarget.value)}
        />
        <button type="submit" disabled={action.busy}>
          Simulate a return
        </button>
      </form>
      {action.busy ? <p role="status">Simulating…</p> : null}
      {action.error ? <ProblemNote error={action.error} /> : null}
      {action.result ? (
        <SimulationResult summary={`The transfer is now ${action.result.result.status}.`} event={action.result.event} />
      ) : null}
    </div>
  );
}
