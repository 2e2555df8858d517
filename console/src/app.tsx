// The console: its session (looked up when the page opens, started by the sign-in page), the frame of a signed-in
// console (who is signed in, the environment, the navigation) and the page its route names.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { clientsFor } from './api/clients.js';
import { currentSession, onSessionEnded, type Session, signOut } from './api/console-api.js';
import { ConsoleContext, isSandbox } from './context.js';
import { AccountPage, BusinessesPage, BusinessPage, TransferPage } from './pages/banking.js';
import { CredentialsPage } from './pages/credentials.js';
import { EventPage, EventsPage } from './pages/events.js';
import { OverviewPage } from './pages/overview.js';
import { MerchantsPage, PaymentPage, PaymentsPage } from './pages/partner.js';
import { PayeePage, PayeesPage } from './pages/payees.js';
import { PayoutPage, PayoutsPage } from './pages/payouts.js';
import { RequestLogPage } from './pages/request-log.js';
import { SandboxPage } from './pages/sandbox.js';
import { SignInPage } from './pages/sign-in.js';
import { WebhookPage, WebhooksPage } from './pages/webhooks.js';
import { Link, match, navigate, useRoute } from './router.js';
import { Page } from './ui/page.js';
import { ProblemNote } from './ui/problem.js';

type Owner = 'merchant' | 'partner';

interface Route {
  pattern: string;
  for: readonly Owner[];
  render(params: Record<string, string>): ComponentChildren;
}

const both = ['merchant', 'partner'] as const;
const routes: Route[] = [
  { pattern: '/', for: both, render: () => <OverviewPage /> },
  { pattern: '/payouts', for: ['merchant'], render: () => <PayoutsPage /> },
  { pattern: '/payouts/:reference', for: ['merchant'], render: (p) => <PayoutPage reference={p.reference!} /> },
  { pattern: '/payees', for: ['merchant'], render: () => <PayeesPage /> },
  { pattern: '/payees/:id', for: ['merchant'], render: (p) => <PayeePage id={Number(p.id)} /> },
  { pattern: '/banking', for: ['merchant'], render: () => <BusinessesPage /> },
  { pattern: '/banking/businesses/:id', for: ['merchant'], render: (p) => <BusinessPage id={Number(p.id)} /> },
  { pattern: '/banking/accounts/:id', for: ['merchant'], render: (p) => <AccountPage id={Number(p.id)} /> },
  { pattern: '/banking/transfers/:id', for: ['merchant'], render: (p) => <TransferPage id={Number(p.id)} /> },
  { pattern: '/merchants', for: ['partner'], render: () => <MerchantsPage /> },
  { pattern: '/payments', for: ['partner'], render: () => <PaymentsPage /> },
  { pattern: '/payments/:id', for: ['partner'], render: (p) => <PaymentPage id={Number(p.id)} /> },
  { pattern: '/events', for: both, render: () => <EventsPage /> },
  { pattern: '/events/:id', for: both, render: (p) => <EventPage id={p.id!} /> },
  { pattern: '/webhooks', for: both, render: () => <WebhooksPage /> },
  { pattern: '/webhooks/:id', for: both, render: (p) => <WebhookPage id={p.id!} /> },
  { pattern: '/credentials', for: both, render: () => <CredentialsPage /> },
  { pattern: '/request-log', for: both, render: () => <RequestLogPage /> },
  { pattern: '/sandbox', for: both, render: () => <SandboxPage /> },
];

interface NavItem {
  href: string;
  label: string;
  for: readonly Owner[];
  sandboxOnly?: boolean;
}

const navigation: NavItem[] = [
  { href: '/', label: 'Overview', for: both },
  { href: '/payouts', label: 'Payouts', for: ['merchant'] },
  { href: '/payees', label: 'Payees', for: ['merchant'] },
  { href: '/banking', label: 'Banking', for: ['merchant'] },
  { href: '/payments', label: 'Payments', for: ['partner'] },
  { href: '/merchants', label: 'Linked merchants', for: ['partner'] },
  { href: '/events', label: 'Events', for: both },
  { href: '/webhooks', label: 'Webhooks', for: both },
  { href: '/credentials', label: 'Credentials', for: both },
  { href: '/request-log', label: 'Request log', for: both },
  { href: '/sandbox', label: 'Sandbox', for: both, sandboxOnly: true },
];

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out'; notice?: string }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'failed'; error: unknown };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const route = useRoute();

  useEffect(() => {
    currentSession().then(
      (session) => setState(session ? { kind: 'signed-in', session } : { kind: 'signed-out' }),
      (error: unknown) => setState({ kind: 'failed', error }),
    );
    return onSessionEnded(() => setState({ kind: 'signed-out', notice: 'Your session ended. Sign in again to go on.' }));
  }, []);

  // The sign-in page has its own address; signed in, it leads to where the reader was going.
  useEffect(() => {
    const path = route.split('?')[0];
    if (state.kind === 'signed-out' && path !== '/sign-in') navigate(`/sign-in?next=${encodeURIComponent(route)}`, { replace: true });
    if (state.kind === 'signed-in' && path === '/sign-in') {
      const next = new URLSearchParams(route.split('?')[1] ?? '').get('next');
      navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
    }
  }, [state.kind, route]);

  if (state.kind === 'loading') return <p class="loading">Loading…</p>;
  if (state.kind === 'failed')
    return (
      <main class="main" id="main">
        <Page title="The console could not start">
          <ProblemNote error={state.error} />
        </Page>
      </main>
    );
  if (state.kind === 'signed-out')
    return (
      <main class="main" id="main">
        <SignInPage notice={state.notice} onSignedIn={(session) => setState({ kind: 'signed-in', session })} />
      </main>
    );
  return <SignedIn session={state.session} route={route} onSignedOut={() => setState({ kind: 'signed-out', notice: 'You signed out.' })} />;
}

function SignedIn({ session, route, onSignedOut }: { session: Session; route: string; onSignedOut: () => void }) {
  const clients = useMemo(() => clientsFor(session), [session]);
  const [signOutError, setSignOutError] = useState<unknown>();
  if (!clients) return <p>This console does not know accounts of the kind “{session.owner.kind}”.</p>;
  const owner = clients.kind;
  const sandbox = isSandbox(session);
  const items = navigation.filter((n) => n.for.includes(owner) && (!n.sandboxOnly || sandbox));
  const path = route.split('?')[0]!;
  let page: ComponentChildren = (
    <Page title="Not found">
      <p>
        This console has no such page. <Link href="/">Go to the overview</Link>.
      </p>
    </Page>
  );
  for (const r of routes) {
    const params = match(r.pattern, path);
    if (params && r.for.includes(owner)) {
      page = r.render(params);
      break;
    }
  }
  const current = (href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));
  return (
    <ConsoleContext.Provider value={{ session, clients }}>
      <a class="skip-link" href="#main">
        Skip to the page
      </a>
      <header class="top">
        <span class="brand">Payout Service console</span>
        <span class="owner">
          {session.owner.name}{' '}
          <span class="muted">
            ({owner} {session.owner.id})
          </span>
        </span>
        <span class={`environment environment-${session.environment}`}>{session.environment}</span>
        <span class="user muted">{session.user.email}</span>
        <button
          type="button"
          onClick={async () => {
            try {
              await signOut();
              onSignedOut();
            } catch (e) {
              setSignOutError(e);
            }
          }}
        >
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav aria-label="Console" class="side">
          <ul>
            {items.map((n) => (
              <li key={n.href}>
                <Link href={n.href} aria-current={current(n.href) ? 'page' : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main class="main" id="main">
          {signOutError ? <ProblemNote error={signOutError} /> : null}
          {page}
        </main>
      </div>
    </ConsoleContext.Provider>
  );
}
