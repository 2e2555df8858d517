// Payouts: the merchant's payouts, newest first, filtered by state, payee and time; a payout's page with its state
// timeline (its events, oldest first), each event's payload, the cancel, and in the sandbox its test helpers.
import { eachPayout, type MerchantComponents, merchantEnums, payoutFromStates, unwrap } from '@payout-service/client';
import { useMemo, useState } from 'preact/hooks';
import { payoutFailureReasons } from '../api/enums.js';
import { eventsOf, eventTime } from '../api/events.js';
import { usePayeeNames } from '../api/payee-names.js';
import { merchantSimulations } from '../api/simulations.js';
import { isSandbox, useConsole, useMerchant } from '../context.js';
import { Link, navigate } from '../router.js';
import { Field, optional, useFields } from '../ui/field.js';
import { useAction } from '../ui/action.js';
import { formatAmount } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { isNotFound, MissingPage, ProblemNote } from '../ui/problem.js';
import { SimulationResult } from '../ui/simulation-result.js';
import { Badge, Payload, Time } from '../ui/values.js';
import { EventList, toInstant } from './events.js';

type Payout = MerchantComponents['schemas']['Payout'];
type PayoutState = MerchantComponents['schemas']['PayoutState'];

interface PayoutFilters {
  Status?: PayoutState;
  PayeeId?: number;
  CreatedFrom?: string;
  CreatedTo?: string;
}

/** A new payout to a payee (its newest active account unless one is named), in the currency's major unit. */
function CreatePayout({ payee }: { payee: string }) {
  const { merchant } = useMerchant();
  const [f, set] = useFields({ payee, account: '', amount: '', currency: 'USD', description: '' });
  const action = useAction(() =>
    unwrap(
      merchant.POST('/v1/payouts', {
        body: {
          PayeeId: Number(f.payee),
          PayeeAccountId: optional(f.account),
          Amount: Number(f.amount),
          Currency: f.currency,
          Description: optional(f.description),
        },
      }),
    ),
  );
  return (
    <form
      class="form"
      aria-label="Send a payout"
      onSubmit={async (e) => {
        e.preventDefault();
        const made = (await action.run())?.value;
        if (made) navigate(`/payouts/${made.PayoutUniqueReference}`);
      }}
    >
      <Field id="new-payout-payee" label="Payee id" required inputMode="numeric" value={f.payee} onValue={(v) => set('payee', v)} />
      <Field
        id="new-payout-account"
        label="Account id (optional: the payee's newest active account)"
        value={f.account}
        onValue={(v) => set('account', v)}
      />
      <Field
        id="new-payout-amount"
        label="Amount (in the currency's major unit)"
        required
        inputMode="decimal"
        placeholder="12.50"
        value={f.amount}
        onValue={(v) => set('amount', v)}
      />
      <Field id="new-payout-currency" label="Currency (ISO code)" required value={f.currency} onValue={(v) => set('currency', v)} />
      <Field id="new-payout-description" label="Description (optional)" value={f.description} onValue={(v) => set('description', v)} />
      <button type="submit" disabled={action.busy}>
        Send the payout
      </button>
      {action.error ? <ProblemNote error={action.error} /> : null}
    </form>
  );
}

/** Payouts as rows: each with the payee it pays by name (and id), its amount, state and times. */
export function PayoutTable({ payouts }: { payouts: Payout[] }) {
  const { merchant } = useMerchant();
  const payees = usePayeeNames(
    merchant,
    payouts.map((p) => p.PayeeId),
  );
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Reference</th>
          <th scope="col">Payee</th>
          <th scope="col" class="number">
            Amount
          </th>
          <th scope="col">State</th>
          <th scope="col">Created</th>
          <th scope="col" class="wide-only">
            Updated
          </th>
        </tr>
      </thead>
      <tbody>
        {payouts.map((p) => (
          <tr key={p.PayoutUniqueReference}>
            <td>
              <Link href={`/payouts/${p.PayoutUniqueReference}`}>{p.PayoutUniqueReference}</Link>
            </td>
            <td>
              <PayeeName id={p.PayeeId} name={payees.get(p.PayeeId)} />
            </td>
            <td class="number">{formatAmount(p.Amount, p.Currency)}</td>
            <td>
              <Badge value={p.Status} />
            </td>
            <td>
              <Time iso={p.CreatedOn} />
            </td>
            <td class="wide-only">
              <Time iso={p.UpdatedOn} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PayoutsPage() {
  const { merchant } = useMerchant();
  const initial = new URLSearchParams(location.search);
  const [draft, setDraft] = useState({ status: initial.get('status') ?? '', payee: initial.get('payee') ?? '', from: '', to: '' });
  const [filters, setFilters] = useState<PayoutFilters>({
    ...(draft.status ? { Status: draft.status as PayoutState } : {}),
    ...(draft.payee ? { PayeeId: Number(draft.payee) } : {}),
  });
  const pager = usePager(() => eachPayout(merchant, { ...filters, PageSize: pageSize }), [merchant, filters]);
  const apply = (e: Event) => {
    e.preventDefault();
    setFilters({
      Status: (draft.status || undefined) as PayoutState | undefined,
      PayeeId: draft.payee ? Number(draft.payee) : undefined,
      CreatedFrom: toInstant(draft.from),
      CreatedTo: toInstant(draft.to),
    });
  };
  return (
    <Page title="Payouts">
      <form class="filters" onSubmit={apply} aria-label="Filter payouts">
        <div>
          <label for="payout-status">State</label>
          <select id="payout-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}>
            <option value="">Any state</option>
            {merchantEnums.PayoutState.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="payout-payee">Payee id</label>
          <input
            id="payout-payee"
            inputMode="numeric"
            pattern="[0-9]*"
            value={draft.payee}
            onInput={(e) => setDraft({ ...draft, payee: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="payout-from">Created from</label>
          <input
            id="payout-from"
            type="datetime-local"
            value={draft.from}
            onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
        </div>
        <div>
          <label for="payout-to">Created before</label>
          <input id="payout-to" type="datetime-local" value={draft.to} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <PayoutTable payouts={pager.items} />
      <PagerFooter pager={pager} noun={['payout', 'payouts']} />
      <Section title="Send a payout" id="payout-create">
        <CreatePayout payee={draft.payee} />
      </Section>
    </Page>
  );
}

export function PayoutPage({ reference }: { reference: string }) {
  const { session, clients } = useConsole();
  const { merchant } = useMerchant();
  const events = useMemo(() => eventsOf(clients), [clients]);
  const [version, setVersion] = useState(0);
  const payout = useLoad(
    () => unwrap(merchant.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } })),
    [merchant, reference, version],
  );
  const history = usePager(() => events.each({ types: [], payout: reference }, 100), [events, reference, version]);
  const cancel = useAction(() =>
    unwrap(merchant.POST('/v1/payouts/{PayoutUniqueReference}/cancel', { params: { path: { PayoutUniqueReference: reference } } })),
  );
  const timeline = [...history.items].reverse();
  if (isNotFound(payout.error))
    return (
      <MissingPage title="No such payout" error={payout.error}>
        Check the reference, or find the payout in <Link href="/payouts">all payouts</Link>.
      </MissingPage>
    );
  return (
    <Page title={`Payout ${reference}`}>
      <p>
        <Link href="/payouts">All payouts</Link>
      </p>
      {payout.error ? <ProblemNote error={payout.error} /> : null}
      {payout.value ? <PayoutFacts payout={payout.value} /> : null}
      {payout.value && offered(payoutFromStates.cancelPayout, payout.value.Status) ? (
        <div class="toolbar">
          <button
            type="button"
            class="danger"
            disabled={cancel.busy}
            onClick={async () => {
              if (await cancel.run()) setVersion((v) => v + 1);
            }}
          >
            Cancel the payout
          </button>
        </div>
      ) : null}
      {cancel.error ? <ProblemNote error={cancel.error} /> : null}
      <Section title="Timeline" id="payout-timeline">
        <ol class="timeline">
          {timeline.map((event) => (
            <li key={event.id}>
              <Badge value={'state' in event && typeof event.state === 'string' ? event.state : event.type} />{' '}
              <Time iso={eventTime(event)} /> <Link href={`/events/${event.id}`}>{event.type}</Link>
            </li>
          ))}
        </ol>
        {history.error ? <ProblemNote error={history.error} /> : null}
        {!history.loading && timeline.length === 0 ? <p class="muted">No events yet.</p> : null}
      </Section>
      <Section title="Events" id="payout-events">
        <EventList events={history.items} />
        <PagerFooter pager={history} noun={['event', 'events']} />
      </Section>
      {isSandbox(session) && clients.kind === 'merchant' ? (
        <Section title="Sandbox" id="payout-sandbox">
          <PayoutSimulations reference={reference} status={payout.value?.Status} onDone={() => setVersion((v) => v + 1)} />
        </Section>
      ) : null}
    </Page>
  );
}

/** A payee by its name, linked, with its id beside it (the id alone until the name is read). */
function PayeeName({ id, name }: { id: number; name: string | undefined }) {
  return name === undefined ? (
    <Link href={`/payees/${id}`}>{id}</Link>
  ) : (
    <>
      <Link href={`/payees/${id}`}>{name}</Link> <span class="muted">#{id}</span>
    </>
  );
}

function PayoutFacts({ payout }: { payout: Payout }) {
  const { merchant } = useMerchant();
  const payees = usePayeeNames(merchant, [payout.PayeeId]);
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        <Badge value={payout.Status} />
      </dd>
      <dt>Amount</dt>
      <dd>{formatAmount(payout.Amount, payout.Currency)}</dd>
      <dt>Payee</dt>
      <dd>
        <PayeeName id={payout.PayeeId} name={payees.get(payout.PayeeId)} /> (account {payout.PayeeAccountId})
      </dd>
      <dt>Description</dt>
      <dd>{payout.Description ?? '—'}</dd>
      {payout.Reasons.length > 0 ? (
        <>
          <dt>Reasons</dt>
          <dd>{payout.Reasons.map((r) => `${r.code}: ${r.message}`).join('; ')}</dd>
        </>
      ) : null}
      {payout.ReturnCode ? (
        <>
          <dt>Return code</dt>
          <dd>{payout.ReturnCode}</dd>
        </>
      ) : null}
      <dt>Created</dt>
      <dd>
        <Time iso={payout.CreatedOn} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <Time iso={payout.UpdatedOn} />
      </dd>
      {Object.keys(payout.metadata).length > 0 ? (
        <>
          <dt>Metadata</dt>
          <dd>
            <Payload value={payout.metadata} label="Metadata" />
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** Whether an action is offered to a payout in `status` (the contract's x-from-states; any state when it is not known). */
const offered = (states: readonly string[], status: string | undefined) => status === undefined || states.includes(status);

/** The payout test helpers: return a completed payout, fail one in flight, release a held one. Given the payout's
 * `status`, only those its state allows are offered (the others would answer 409). */
export function PayoutSimulations({ reference, status, onDone }: { reference: string; status?: string; onDone?: () => void }) {
  const { clients } = useConsole();
  const simulations = useMemo(() => (clients.kind === 'merchant' ? merchantSimulations(clients) : undefined), [clients]);
  const [returnCode, setReturnCode] = useState('R01');
  const [reason, setReason] = useState<(typeof payoutFailureReasons)[number]>('account_closed');
  const action = useAction(
    async (label: string, run: () => Promise<{ result: Payout; event: Parameters<typeof SimulationResult>[0]['event'] }>) => {
      const done = await run();
      onDone?.();
      return { ...done, label };
    },
  );
  if (!simulations) return null;
  const canReturn = offered(payoutFromStates.simulatePayoutReturn, status);
  const canFail = offered(payoutFromStates.simulatePayoutFailure, status);
  const canRelease = offered(payoutFromStates.simulatePayoutRelease, status);
  const none = !canReturn && !canFail && !canRelease;
  return (
    <div class="simulations">
      {none ? <p class="muted">No test helper applies to a {status} payout.</p> : null}
      {canReturn ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void action.run('Returned', () => simulations.returnPayout(reference, returnCode));
          }}
        >
          <label for="return-code">Return code</label>
          <input
            id="return-code"
            value={returnCode}
            pattern="R[0-9]{2}"
            required
            size={4}
            onInput={(e) => setReturnCode(e.currentTarget.value)}
          />
          <button type="submit" disabled={action.busy}>
            Simulate a return
          </button>
        </form>
      ) : null}
      {canFail ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void action.run('Failed', () => simulations.failPayout(reference, reason));
          }}
        >
          <label for="failure-reason">Failure reason</label>
          <select id="failure-reason" value={reason} onChange={(e) => setReason(e.currentTarget.value as typeof reason)}>
            {payoutFailureReasons.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button type="submit" disabled={action.busy}>
            Simulate a failure
          </button>
        </form>
      ) : null}
      {canRelease ? (
        <div class="inline-form">
          <button
            type="button"
            disabled={action.busy}
            onClick={() => void action.run('Released', () => simulations.releasePayout(reference))}
          >
            Release a held payout
          </button>
        </div>
      ) : null}
      {action.busy ? <p role="status">Simulating…</p> : null}
      {action.error ? <ProblemNote error={action.error} /> : null}
      {action.result ? (
        <SimulationResult
          summary={`${action.result.label}: the service answered the payout as ${action.result.result.Status}.`}
          event={action.result.event}
        />
      ) : null}
    </div>
  );
}
