// The overview: who is signed in, for which merchant or partner, in which environment, and what each page is for.
import { useConsole } from '../context.js';
import { Link } from '../router.js';
import { Page } from '../ui/page.js';
import { Time } from '../ui/values.js';

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
