// A partner's pages: its linked merchants, the payments it requested for them (newest first), and a payment's page
// with its status history, its events, the cancel and, in the sandbox, a return.
import { eachPartnerTransaction, type PartnerComponents, partnerEnums, unwrap } from '@payout-service/client';
import { useMemo, useState } from 'preact/hooks';
import { eventsAbout, eventsOf } from '../api/events.js';
import { partnerSimulations } from '../api/simulations.js';
import { isSandbox, useConsole, usePartner } from '../context.js';
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

type P = PartnerComponents['schemas'];

const paymentEventTypes = partnerEnums.PartnerEventType.filter((t) => t.startsWith('payment.'));

export function MerchantsPage() {
  const { session } = useConsole();
  const partner = usePartner();
  const merchants = useLoad(
    () => unwrap(partner.GET('/finance/v1/partner/list', { params: { query: { partnerId: session.owner.id } } })),
    [partner, session.owner.id],
  );
  return (
    <Page title="Linked merchants">
      <p class="lead">The merchants you may request payments for.</p>
      {merchants.error ? <ProblemNote error={merchants.error} /> : null}
      {(merchants.value?.message ?? []).map((m) => (
        <p key={m} class="notice">
          {m}
        </p>
      ))}
      <table>
        <thead>
          <tr>
            <th scope="col">Merchant</th>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Linked</th>
          </tr>
        </thead>
        <tbody>
          {(merchants.value?.data ?? []).map((m) => (
            <tr key={m.merchantId}>
              <td>
                <Link href={`/payments?merchant=${m.merchantId}`}>{m.merchantId}</Link>
              </td>
              <td>{m.name}</td>
              <td>
                <Badge value={m.status} />
              </td>
              <td>
                <Time iso={m.linkedOn} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="pager-status" role="status">
        {merchants.loading ? 'Loading merchants…' : merchants.value?.data.length === 0 ? 'No linked merchants.' : ''}
      </p>
    </Page>
  );
}

export function PaymentsPage() {
  const partner = usePartner();
  const initial = new URLSearchParams(location.search).get('merchant') ?? '';
  const [draft, setDraft] = useState(initial);
  const [merchantId, setMerchantId] = useState<number | undefined>(initial ? Number(initial) : undefined);
  const pager = usePager(
    () => eachPartnerTransaction(partner, { pageSize, sortProperty: 'createdOn', isDescending: true, merchantId }),
    [partner, merchantId],
  );
  return (
    <Page title="Payments">
      <p class="lead">The payments you requested for your linked merchants, newest first.</p>
      <form
        class="filters"
        aria-label="Filter payments"
        onSubmit={(e) => {
          e.preventDefault();
          setMerchantId(draft ? Number(draft) : undefined);
        }}
      >
        <div>
          <label for="payment-merchant">Merchant id</label>
          <input
            id="payment-merchant"
            inputMode="numeric"
            pattern="[0-9]*"
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
          />
        </div>
        <button type="submit">Filter</button>
      </form>
      <table>
        <thead>
          <tr>
            <th scope="col">Payment</th>
            <th scope="col">Merchant</th>
            <th scope="col" class="number">
              Amount
            </th>
            <th scope="col">Route</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pager.items.map((t) => (
            <tr key={t.paymentId}>
              <td>
                <Link href={`/payments/${t.paymentId}`}>{t.paymentId}</Link>
              </td>
              <td>{t.merchantId}</td>
              <td class="number">{formatAmount(t.amount, t.currency)}</td>
              <td>{t.transactionType}</td>
              <td>
                <Badge value={t.transactionStatus} />
              </td>
              <td>
                <Time iso={t.createdOn} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <PagerFooter pager={pager} noun={['payment', 'payments']} />
    </Page>
  );
}

export function PaymentPage({ id }: { id: number }) {
  const { session, clients } = useConsole();
  const partner = usePartner();
  const [version, setVersion] = useState(0);
  const payment = useLoad(
    () => unwrap(partner.GET('/finance/v1/payment_request/{paymentId}', { params: { path: { paymentId: id } } })),
    [partner, id, version],
  );
  // The status history is on the payment's search record.
  const record = useLoad(
    () => unwrap(partner.POST('/finance/v1/partner/search_transactions', { body: { paymentId: id, pageSize: 1 } })),
    [partner, id, version],
  );
  const events = useMemo(() => eventsOf(clients), [clients]);
  // The payment's events, among the latest payment events (the events list has no payment filter).
  const history = useLoad(
    () => eventsAbout(events, { types: paymentEventTypes }, (e) => (e as { payment?: { paymentId?: number } }).payment?.paymentId === id),
    [events, id, version],
  );
  const cancel = useAction(() =>
    unwrap(partner.POST('/finance/v1/payment_request/{paymentId}/cancel', { params: { path: { paymentId: id } } })),
  );
  const p = payment.value;
  const statusHistory: P['TransactionStatusChange'][] = record.value?.data[0]?.statusHistory ?? [];
  if (isNotFound(payment.error))
    return (
      <MissingPage title="No such payment" error={payment.error}>
        <Link href="/payments">All payments</Link>
      </MissingPage>
    );
  return (
    <Page title={`Payment ${id}`}>
      <p>
        <Link href="/payments">All payments</Link>
      </p>
      {payment.error ? <ProblemNote error={payment.error} /> : null}
      {p ? (
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge value={p.status} />
          </dd>
          <dt>Amount</dt>
          <dd>{formatAmount(p.amount, p.currency)}</dd>
          <dt>Merchant</dt>
          <dd>{p.merchantId}</dd>
          <dt>Payee</dt>
          <dd>{p.payeeId}</dd>
          <dt>Route</dt>
          <dd>{p.route}</dd>
          <dt>Description</dt>
          <dd>{p.description}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={p.createdOn} />
          </dd>
        </dl>
      ) : null}
      {p?.status === 'created' ? (
        <div class="toolbar">
          <button
            type="button"
            class="danger"
            disabled={cancel.busy}
            onClick={async () => {
              if (await cancel.run()) setVersion((v) => v + 1);
            }}
          >
            Cancel the payment
          </button>
        </div>
      ) : null}
      {cancel.error ? <ProblemNote error={cancel.error} /> : null}
      <Section title="Timeline" id="payment-timeline">
        <ol class="timeline">
          {statusHistory.map((change) => (
            <li key={`${change.status}-${change.at}`}>
              <Badge value={change.status} /> <Time iso={change.at} />
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Events" id="payment-events">
        {history.error ? <ProblemNote error={history.error} /> : null}
        <EventList events={history.value ?? []} />
      </Section>
      {isSandbox(session) ? (
        <Section title="Sandbox" id="payment-sandbox">
          <PaymentSimulations paymentId={id} onDone={() => setVersion((v) => v + 1)} />
        </Section>
      ) : null}
    </Page>
  );
}

export function PaymentSimulations({ paymentId, onDone }: { paymentId: number; onDone?: () => void }) {
  const { clients } = useConsole();
  const simulations = useMemo(() => (clients.kind === 'partner' ? partnerSimulations(clients) : undefined), [clients]);
  const [returnCode, setReturnCode] = useState('R01');
  const action = useAction(async () => {
    const done = await simulations!.returnPayment(paymentId, returnCode);
    onDone?.();
    return done;
  });
  if (!simulations) return null;
  return (
    <div class="simulations">
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run();
        }}
      >
        <label for={`payment-return-${paymentId}`}>Return code</label>
        <input
          id={`payment-return-${paymentId}`}
          value={returnCode}
          required
          size={4}
          onInput={(e) => setReturnCode(e.currentTarget.value)}
        />
        <button type="submit" disabled={action.busy}>
          Simulate a return
        </button>
      </form>
      {action.error ? <ProblemNote error={action.error} /> : null}
      {action.result ? (
        <SimulationResult summary={`The payment is now ${action.result.result.status}.`} event={action.result.event} />
      ) : null}
    </div>
  );
}
