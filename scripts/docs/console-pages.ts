// The pages of the web console the docs show, each photographed by `npm run docs:screenshots`
// (console-screenshots.ts) into docs/console/<name>.png, and shown by the console guide and the overview (facts.ts).
import { repoRoot } from './contract.js';

/** Where the screenshots are kept (committed: the docs build copies them to docs/dist/console/). */
export const screenshotsDir = `${repoRoot}docs/console/`;

/** Viewport of every screenshot, so pages show alike and the docs can reserve their space. */
export const screenshotSize = { width: 1280, height: 800 } as const;

/** The pages photographed, in the order the console guide shows them. */
export const consoleShots = [
  { name: 'sign-in', owner: 'merchant', title: 'Sign-in' },
  { name: 'overview', owner: 'merchant', title: 'Overview' },
  { name: 'payouts', owner: 'merchant', title: 'Payouts, filtered by state, payee and time' },
  { name: 'payout', owner: 'merchant', title: 'A payout: its timeline and events' },
  { name: 'payees', owner: 'merchant', title: 'Payees' },
  { name: 'payee', owner: 'merchant', title: 'A payee and its accounts' },
  { name: 'banking', owner: 'merchant', title: 'Banking: businesses' },
  { name: 'business', owner: 'merchant', title: 'A business: accounts with balances' },
  { name: 'account', owner: 'merchant', title: 'An account: transfers and ledger entries' },
  { name: 'transfer', owner: 'merchant', title: 'A transfer, its entries and events' },
  { name: 'events', owner: 'merchant', title: 'Events and their payloads' },
  { name: 'webhooks', owner: 'merchant', title: 'Webhooks: registrations and a new one' },
  { name: 'webhook', owner: 'merchant', title: 'A registration and its delivery log' },
  { name: 'credentials', owner: 'merchant', title: 'Credentials: a new secret, shown once' },
  { name: 'request-log', owner: 'merchant', title: 'Request log' },
  { name: 'sandbox', owner: 'merchant', title: 'Sandbox test helpers and the event caused' },
  { name: 'partner-payments', owner: 'partner', title: 'A partner’s payments' },
  { name: 'partner-payment', owner: 'partner', title: 'A payment: its status history and events' },
  { name: 'partner-merchants', owner: 'partner', title: 'A partner’s linked merchants' },
] as const;

export type ConsoleShot = (typeof consoleShots)[number]['name'];

/** The pages the overview shows, the rest being on the console guide. */
export const overviewShots: readonly ConsoleShot[] = ['payout', 'webhook', 'credentials', 'sandbox'];
