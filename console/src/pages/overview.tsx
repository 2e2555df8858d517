// The overview: who is signed in, for which merchant or partner, in which environment; the day's figures (a
// merchant's payouts by state and its latest payouts, the deliveries that failed); and what each page is for.
import { eachPayout, type MerchantClient, merchantEnums } from '@payout-service/client';
import { useMemo } from 'preact/hooks';
import { failedDeliveries, figureLimit, todaysPayouts } from '../api/figures.js';
import { webhooksOf } from '../api/webhooks.js';
import { useConsole } from '../context.js';
import { Link } from '../router.js';
import { counted } from '../ui/format.js';
import { useLoad } from '../ui/load.js';
import { PayoutTable } from './payouts.js';
import { Page, Section } from '../ui/page.js';
import { ProblemNote } from '../ui/problem.js';
import { Badge, Time } from '../ui/values.js';

/** A state's place in the contract's order (one it does not list yet comes last). */
const stateOrder = (state: string) => {
  const at = (merchantEnums.PayoutState as readonly string[]).indexOf(state);
  return at < 0 ? Number.MAX_SAFE_INTEGER : at;
};

/** The merchant's latest payouts shown on the overview. */
const recent = 5;

function TodaysPayouts({ merchant }: { merchant: MerchantClient }) {
  const today = useLoad(() => todaysPayouts(merchant), [merchant]);
  const latest = useLoad(async () => {
    const out = [];
    for await (const p of eachPayout(merchant, { PageSize: recent })) {
      out.push(p);
      if (out.length === recent) break;
    }
    return out;
  }, [merchant]);
  const t = today.value;
  return (
    <>
      <Section title="Today's payouts" id="overview-today">
        {today.error ? <ProblemNote error={today.error} /> : null}
        {t ? (
          <>
            <p role="status">
              {t.capped ? `${figureLimit} or more payouts` : counted(t.total, ['payout', 'payouts'])} created since midnight.
            </p>
            <table>
              <thead>
                <tr>
                  <th scope="col">State</th>
                  <th scope="col" class="number">
                    Payouts
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...t.counts.keys()]
                  .sort((a, b) => stateOrder(a) - stateOrder(b))
                  .map((state) => (
                    <tr key={state}>
                      <td>
                        <Link href={`/payouts?status=${state}`}>
                          <Badge value={state} />
                        </Link>
                      </td>
                      <td class="number">{t.counts.get(state)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </>
        ) : (
          <p class="muted">Counting today's payouts…</p>
        )}
      </Section>
      <Section title="Latest payouts" id="overview-latest">
        {latest.error ? <ProblemNote error={latest.error} /> : null}
        <PayoutTable payouts={latest.value ?? []} />
        {latest.value?.length === 0 ? <p class="muted">No payouts yet.</p> : null}
      </Section>
    </>
  );
}

function FailedDeliveries() {
  const { clients } = useConsole();
  const api = useMemo(() => webhooksOf(clients), [clients]);
  const failed = useLoad(() => failedDeliveries(api), [api]);
  const f = failed.value;
  return (
    <Section title="Failed deliveries, last 24 hours" id="overview-failed">
      {failed.error ? <ProblemNote error={failed.error} /> : null}
      {f ? (
        <p role="status">
          {counted(f.total, ['failed delivery', 'failed deliveries'])}
          {f.capped ? ` among the latest ${figureLimit} read` : ''}.
        </p>
      ) : (
        <p class="muted">Reading the delivery logs…</p>
      )}
      {f && f.byWebhook.length > 0 ? (
        <ul>
          {f.byWebhook.map(({ webhook, failures }) => (
            <li key={webhook.id}>
              <Link href={`/webhooks/${webhook.id}`}>{webhook.url}</Link>: {counted(failures, ['failure', 'failures'])}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

export function OverviewPage() {
  const { session, clients } = useConsole();
  const merchant = clients.kind === 'merchant';
  return (
    <Page title={session.owner.name}>
      <dl class="facts">
        <dt>Signed in as</dt>
        <dd>{session.user.email}</dd>
        <dt>{merchant ? 'Merchant id' : 'Partner id'}</dt>
        <dd>{session.owner.id}</dd>
        <dt>Environment</dt>
        <dd>{session.environment}</dd>
        <dt>Session ends at the latest</dt>
        <dd>
          <Time iso={session.expiresAt} />
        </dd>
      </dl>
      {clients.kind === 'merchant' ? <TodaysPayouts merchant={clients.merchant} /> : null}
      <FailedDeliveries />
      <ul class="cards">
        {merchant ? (
          <>
            <li>
              <Link href="/payouts">Payouts</Link>: every payout with its timeline and events.
            </li>
            <li>
              <Link href="/payees">Payees</Link>: the people and businesses you pay, and their accounts.
            </li>
            <li>
              <Link href="/banking">Banking</Link>: businesses, accounts and balances, ledger entries and transfers.
            </li>
          </>
        ) : (
          <>
            <li>
              <Link href="/payments">Payments</Link>: the payments you requested for your linked merchants.
            </li>
            <li>
              <Link href="/merchants">Linked merchants</Link>: whom you may act for.
            </li>
          </>
        )}
        <li>
          <Link href="/events">Events</Link>: what happened, with the payload your webhooks received.
        </li>
        <li>
          <Link href="/webhooks">Webhooks</Link>: where events are sent, and every delivery.
        </li>
        <li>
          <Link href="/credentials">Credentials</Link>: Client IDs and secrets for the API.
        </li>
        <li>
          <Link href="/request-log">Request log</Link>: your latest API requests and their answers.
        </li>
        {session.environment === 'sandbox' ? (
          <li>
            <Link href="/sandbox">Sandbox</Link>: move test payouts, transfers and verifications on demand.
          </li>
        ) : null}
      </ul>
    </Page>
  );
}
