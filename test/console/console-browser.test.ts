// The web console in a real browser (Debian's Chromium, driven by playwright-core), served by a real service over a
// real store, as an integrator uses it: sign in; create a credential and read its secret once (gone after a reload),
// then get a token with it at /oauth/token; register a webhook and send it a test event; create a payout through the
// API and follow it in the console (its timeline, its events and their payloads, the request log); simulate its
// return; change a registration's events and stop its deliveries; add a payee, its account and a payout to it from
// the console's forms; read the overview's figures; open pages for what does not exist; fit a phone's screen; sign
// out. A partner's user sees its linked merchants and their payments only. Throughout: no request leaves the
// console's origin, no page logs an error or breaks its Content-Security-Policy, and axe-core finds no
// serious or critical accessibility violation on any page. And the session's defences: the cookie is HttpOnly and
// SameSite=Strict, a form posted from another site is refused, a session past its idle limit is refused (the
// service's clock is moved past it, not waited for). Waits are on conditions only.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient, createPartnerClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { buildConsole } from '../../scripts/build/build-console.mjs';
import { commands } from '../../server/admin/commands.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const chromiumPath = '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
if (!haveChromium) {
  console.warn(
    `test/console/console-browser.test.ts is skipped: ${chromiumPath} does not exist. Install Debian's Chromium ` +
      '(apt-get install -y --no-install-recommends chromium); CI does so in .ci/run.',
  );
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const password = 'a long console password';
const idleMs = 60_000;
const address = { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' };

/** An admin CLI command, run as the CLI runs it, against the suite's services. */
async function admin(services: Parameters<(typeof commands)[number]['run']>[1], name: string, values: Record<string, string>) {
  const command = commands.find((c) => c.name === name);
  if (!command) throw new Error(`no admin command ${name}`);
  return (await command.run({ ...values, json: true }, services)).json as Record<string, unknown>;
}

/** The browser globals the in-page functions use (the repository's tsconfig has no DOM library). */
interface PageGlobals {
  document: {
    body: { innerText: string };
    documentElement: { scrollWidth: number };
    querySelector(selector: string): { getBoundingClientRect(): { top: number } } | null;
  };
}

interface Watched {
  page: Page;
  /** Requests to anything but the service's origin. */
  offsite: string[];
  /** Console errors (a CSP refusal among them) and uncaught page errors. */
  errors: string[];
  /** Answers a test provokes on purpose (a page for a payout that does not exist): `<status> <path>`. */
  provoked: string[];
}

function watch(page: Page, origin: string): Watched {
  const watched: Watched = { page, offsite: [], errors: [], provoked: [] };
  page.on('request', (r) => {
    if (!r.url().startsWith(`${origin}/`)) watched.offsite.push(r.url());
  });
  // A failed answer is named by its request; the browser's own line for it says less.
  page.on('response', (r) => {
    const refusedSession = r.status() === 401 && new URL(r.url()).pathname.startsWith('/console/api/');
    const provoked = watched.provoked.includes(`${r.status()} ${new URL(r.url()).pathname}`);
    if (r.status() >= 400 && !refusedSession && !provoked) watched.errors.push(`${r.request().method()} ${r.url()} answered ${r.status()}`);
  });
  page.on('console', (m) => {
    // Anything else the browser reports, a refused inline script above all, fails the test.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) watched.errors.push(m.text());
  });
  page.on('pageerror', (e) => watched.errors.push(e.message));
  return watched;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is (WCAG 2.1 A and AA, and axe's best practices). */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => r.violations)",
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Waits until the page shows its heading and has finished loading what it lists. */
async function settled(page: Page, heading: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // A function, not a string: the page's policy refuses eval, and Playwright evaluates a string predicate with it.
  await page.waitForFunction(() => !(globalThis as unknown as PageGlobals).document.body.innerText.includes('Loading'));
}

async function expectAccessible(page: Page, heading: string | RegExp): Promise<void> {
  await settled(page, heading);
  expect(await seriousViolations(page), `axe on ${page.url()}`).toEqual([]);
}

/** Signs in on the sign-in page, opened at `/console/` unless the page already shows it. */
async function signIn(page: Page, origin: string, email: string, { open = true } = {}): Promise<void> {
  if (open) await page.goto(`${origin}/console/`);
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Goes to a page of the console by its navigation, as a reader does. */
async function follow(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click();
}

/** A page of another site: a form that posts itself to `target` as soon as it loads, as a forged request would. */
function formPage(target: string): Promise<Server> {
  const html = `<!doctype html><html lang="en"><title>Elsewhere</title><body>
<form method="POST" action="${target}" enctype="text/plain"><input name="a" value="b"></form>
<script>document.forms[0].submit()</script></body></html>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(!haveChromium).each(stores)('the console in Chromium on $name', (kind) => {
  let offset = 0;
  const service = useService(kind, { consoleIdleTimeoutMs: idleMs }, { now: () => Date.now() + offset });
  let browser: Browser;
  let receiver: WebhookReceiver;
  let origin: string;
  let merchant: { merchantId: number; email: string };
  let partner: { partnerId: number; email: string };
  let otherMerchantId: number;
  let context: BrowserContext;
  let watched: Watched;

  beforeAll(async () => {
    await buildConsole(); // a no-op when dist/console/ is current (npm ci built it)
    origin = service.baseUrl;
    receiver = await startReceiver();
    const services = service.services;
    const m = await admin(services, 'create-merchant', { name: 'Northwind Logistics' });
    merchant = { merchantId: Number(m.merchantId), email: `ada.${kind.name}@northwind.example` };
    await admin(services, 'create-console-user', { merchant: String(merchant.merchantId), email: merchant.email, password });
    const other = await admin(services, 'create-merchant', { name: 'Blue Harbor Goods' });
    otherMerchantId = Number(other.merchantId);
    const p = await admin(services, 'create-partner', { name: 'Harbor Payments' });
    partner = { partnerId: Number(p.partnerId), email: `grace.${kind.name}@harbor.example` };
    await admin(services, 'link', { partner: String(partner.partnerId), merchant: String(merchant.merchantId) });
    await admin(services, 'create-console-user', { partner: String(partner.partnerId), email: partner.email, password });

    // Payments: one by the partner for its linked merchant, one by another partner for a merchant it is not linked to.
    const q = await admin(services, 'create-partner', { name: 'Elsewhere Payments' });
    await admin(services, 'link', { partner: String(q.partnerId), merchant: String(otherMerchantId) });
    for (const [credentials, merchantId, description] of [
      [p, merchant.merchantId, 'For the linked merchant'],
      [q, otherMerchantId, 'For a merchant of another partner'],
    ] as const) {
      const c = createPartnerClient({
        baseUrl: origin,
        credentials: { clientId: String(credentials.clientId), clientSecret: String(credentials.clientSecret) },
      });
      const recipient = await unwrap(
        c.POST('/finance/v1/recipient-ach', {
          body: {
            merchantId,
            email: 'maria.gonzalez@example.com',
            name: 'Maria Gonzalez',
            type: 'INDIVIDUAL',
            ach: {
              accountNumber: '000123456789',
              bankAccountType: 'CHECKING',
              bankName: 'First Hudson Bank',
              routingNumber: '021000021',
              address: {
                line1: '350 Fifth Avenue',
                city: 'New York',
                state: 'NY',
                postalCode: '10118',
                countryCode: 'US',
                type: 'RESIDENCE',
              },
            },
          },
        }),
      );
      await unwrap(
        c.POST('/finance/v1/payment_request', {
          body: { merchantId, payeeId: recipient.id, amount: 25, currency: 'USD', paymentMethodType: 'STANDARD', description },
        }),
      );
    }

    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    watched = watch(await context.newPage(), origin);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('signs a merchant in, and keeps its session in an HttpOnly, SameSite=Strict cookie', async () => {
    const { page } = watched;
    await page.goto(`${origin}/console/payouts`);
    await expectAccessible(page, 'Sign in to the console');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await signIn(page, origin, merchant.email, { open: false });
    // Signed in, the reader is where they were going.
    await expectAccessible(page, 'Payouts');
    const cookies = await context.cookies(origin);
    expect(cookies.map((c) => c.name)).toEqual(['console_session']);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate('document.cookie')).toBe('');
    await follow(page, 'Overview');
    await expectAccessible(page, 'Northwind Logistics');
  });

  let credentials: { clientId: string; clientSecret: string };

  it('creates a credential whose secret is shown once, gone after a reload, and gets a token with it', async () => {
    const { page } = watched;
    await follow(page, 'Credentials');
    await settled(page, 'Credentials');
    await page.getByRole('button', { name: 'Create a credential' }).click();
    const secretBox = page.getByRole('textbox', { name: 'Client Secret' });
    await secretBox.waitFor();
    credentials = {
      clientId: (await page.getByTestId('new-client-id').textContent()) ?? '',
      clientSecret: await secretBox.inputValue(),
    };
    expect(credentials.clientId).toMatch(/^mch_cl_/);
    expect(credentials.clientSecret).toMatch(/^sk_/);
    await expectAccessible(page, 'Credentials');

    await page.reload();
    await settled(page, 'Credentials');
    await page.getByRole('cell', { name: credentials.clientId, exact: true }).waitFor();
    expect(await page.content()).not.toContain(credentials.clientSecret);
    expect(await page.getByRole('textbox', { name: 'Client Secret' }).count()).toBe(0);

    const token = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: credentials.clientId, client_secret: credentials.clientSecret, grant_type: 'client_credentials' }),
    });
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
  });

  let webhookId: string;

  it('registers a webhook, shows its signing secret once, and logs the delivery of a test event', async () => {
    const { page } = watched;
    await follow(page, 'Webhooks');
    await settled(page, 'Webhooks');
    await page.getByLabel('URL').fill(`${receiver.url}/console-hooks`);
    await page.getByRole('button', { name: 'Register' }).click();
    const secret = page.getByRole('textbox', { name: 'Signing secret' });
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^whsec_/);
    await expectAccessible(page, 'Webhooks');
    await page.getByRole('link', { name: 'Open the registration' }).click();
    await settled(page, 'Webhook registration');
    webhookId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event sent: delivered' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'webhook.test' });
    await row.getByText('delivered').waitFor();
    expect(await row.innerText()).toContain('{"status":"ok"}'); // the start of the receiver's answer
    // Counted in the right number.
    await page
      .getByRole('status')
      .filter({ hasText: /^1 delivery shown\.$/ })
      .waitFor();
    expect(receiver.deliveries.some((d) => d.path === '/console-hooks' && d.body.includes('"webhook.test"'))).toBe(true);
    await expectAccessible(page, 'Webhook registration');
  });

  let reference: string;

  it('shows a payout made through the API with its timeline, its events and their payloads', async () => {
    const api = createMerchantClient({ baseUrl: origin, credentials });
    const payee = await unwrap(
      api.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Maria Gonzalez', EmailAddress: 'maria@example.com', address } }),
    );
    await unwrap(
      api.POST('/v1/payees/{id}/accounts', {
        params: { path: { id: payee.id } },
        body: {
          type: 'BANK_ACCOUNT',
          accountHolderName: 'Maria Gonzalez',
          bankName: 'First Hudson Bank',
          routingNumber: '021000021',
          accountNumber: '000123456789',
          accountType: 'CHECKINGS',
          Currency: 'USD',
        },
      }),
    );
    const payout = await unwrap(
      api.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 125.5, Currency: 'USD', Description: 'Console test' } }),
    );
    reference = payout.PayoutUniqueReference;
    // The sandbox moves it at once; its completion is the last event of its timeline.
    await receiver.waitFor(1, (d) => d.body.includes(reference) && d.body.includes('"payout.completed"'));

    const { page } = watched;
    await follow(page, 'Payouts');
    await settled(page, 'Payouts');
    // Whom each payout pays, by name, with the payee's id beside it.
    const row = page.getByRole('row').filter({ hasText: reference });
    await row.getByRole('link', { name: 'Maria Gonzalez' }).waitFor();
    expect(await row.innerText()).toContain(`#${payee.id}`);
    await page.getByRole('link', { name: reference }).click();
    await settled(page, `Payout ${reference}`);
    await page.locator('.facts').getByRole('link', { name: 'Maria Gonzalez' }).waitFor();
    const timeline = page.locator('.timeline li');
    await expect
      .poll(() => timeline.allInnerTexts(), { timeout: 15_000 })
      .toEqual([
        expect.stringContaining('payout.created'),
        expect.stringContaining('payout.processing'),
        expect.stringContaining('payout.sent'),
        expect.stringContaining('payout.completed'),
      ]);
    const events = page.getByRole('region', { name: 'Events' });
    await events.locator('summary').filter({ hasText: 'payout.completed' }).click();
    await expect
      .poll(() => events.locator('.payload').first().innerText(), { timeout: 15_000 })
      .toContain(`"payout_request_id": "${reference}"`);
    await expectAccessible(page, `Payout ${reference}`);

    await events.getByRole('link', { name: 'Open the event' }).first().click();
    await settled(page, 'Event');
    expect(await page.locator('.payload').innerText()).toContain(reference);
    await expectAccessible(page, 'Event');
  });

  it('lists the API requests in the request log, with their status and Client ID', async () => {
    const { page } = watched;
    await follow(page, 'Request log');
    await settled(page, 'Request log');
    // The log is written in batches: read again until the payout's request is in it.
    const row = page.getByRole('row').filter({ hasText: 'POST' }).filter({ hasText: '/v1/payouts' });
    await expect
      .poll(
        async () => {
          if ((await row.count()) > 0) return row.first().innerText();
          await page.getByRole('button', { name: 'Filter' }).click();
          await settled(page, 'Request log');
          return '';
        },
        { timeout: 15_000 },
      )
      .toMatch(new RegExp(`202[\\s\\S]*${credentials.clientId}`));
    // The console's own requests set apart: filtered to `console`, none of the API credential's is left.
    // A filter's rows replace the list's once its read ends: wait for the rows, not for a moment after the click.
    const clients = async () => [...new Set(await page.locator('tbody tr td:last-child').allInnerTexts())];
    await page.getByLabel('Client ID').fill('console');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(clients, { timeout: 15_000 }).toEqual(['console']);
    await page.getByLabel('Client ID').fill(credentials.clientId);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(clients, { timeout: 15_000 }).toEqual([credentials.clientId]);
    await expectAccessible(page, 'Request log');
  });

  it('simulates the payout’s return and shows the event it caused', async () => {
    const { page } = watched;
    await page.goto(`${origin}/console/payouts/${reference}`);
    await settled(page, `Payout ${reference}`);
    // A completed payout is offered only what its state allows (the contract's x-from-states): a return.
    await page.getByRole('button', { name: 'Simulate a return' }).waitFor();
    for (const name of ['Simulate a failure', 'Release a held payout', 'Cancel the payout'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    await page.getByLabel('Return code').fill('R03');
    await page.getByRole('button', { name: 'Simulate a return' }).click();
    const result = page.locator('.simulation-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/Returned: the service answered the payout as returned[\s\S]*It caused payout\.returned/);
    await page.locator('.timeline li').filter({ hasText: 'payout.returned' }).waitFor();
    // A reference that names no payout of this merchant: a page that says so, and nothing else of a payout's.
    const missing = 'po_00000000000000000000000000';
    watched.provoked.push(`404 /v1/payouts/${missing}`);
    await page.goto(`${origin}/console/payouts/${missing}`);
    await settled(page, 'No such payout');
    await page.getByText(`No payout ${missing} exists for this merchant.`).waitFor();
    expect(await page.getByRole('heading', { name: 'Timeline' }).count()).toBe(0);
    await expectAccessible(page, 'No such payout');
    await page.goto(`${origin}/console/payouts/${reference}`);
    await settled(page, `Payout ${reference}`);
    // Returned, it is final: nothing more is offered, and the page says so.
    await page.getByText('No test helper applies to a returned payout.').waitFor();
    expect(await page.getByRole('button', { name: 'Simulate a return' }).count()).toBe(0);
    const api = createMerchantClient({ baseUrl: origin, credentials });
    expect(
      await unwrap(api.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } })),
    ).toMatchObject({ Status: 'returned', ReturnCode: 'R03' });
    await expectAccessible(page, `Payout ${reference}`);
  });

  it('changes a registration’s events, and stops and starts its deliveries', async () => {
    const { page } = watched;
    await page.goto(`${origin}/console/webhooks/${webhookId}`);
    await settled(page, 'Webhook registration');
    const form = page.getByRole('form', { name: 'Change the events' });
    // The contract takes no empty list on a change: nothing chosen, nothing to save.
    const checked = form.getByRole('checkbox', { checked: true });
    while ((await checked.count()) > 0) await checked.first().uncheck();
    expect(await form.getByRole('button', { name: 'Save the events' }).isDisabled()).toBe(true);
    await form.getByRole('checkbox', { name: 'payout.completed' }).check();
    await form.getByRole('checkbox', { name: 'payout.returned' }).check();
    await form.getByRole('button', { name: 'Save the events' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved: 2 events.' }).waitFor();
    await page
      .locator('.facts dd')
      .filter({ hasText: /^payout\.completed, payout\.returned$|^payout\.returned, payout\.completed$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Disable deliveries' }).click();
    await page.getByRole('button', { name: 'Enable deliveries' }).waitFor();
    await page.locator('.facts').getByText('disabled', { exact: true }).waitFor();
    const api = createMerchantClient({ baseUrl: origin, credentials });
    const changed = await unwrap(api.GET('/v1/webhooks/{id}', { params: { path: { id: webhookId } } }));
    expect(changed.enabled).toBe(false);
    expect([...changed.events].sort()).toEqual(['payout.completed', 'payout.returned']);
    await expectAccessible(page, 'Webhook registration');
    await page.getByRole('button', { name: 'Enable deliveries' }).click();
    await page.getByRole('button', { name: 'Disable deliveries' }).waitFor();
    expect((await unwrap(api.GET('/v1/webhooks/{id}', { params: { path: { id: webhookId } } }))).enabled).toBe(true);
  });

  it('adds a payee and its account, and sends it a payout, from the console', async () => {
    const { page } = watched;
    await follow(page, 'Payees');
    await settled(page, 'Payees');
    const form = page.getByRole('form', { name: 'Add a payee' });
    await form.getByLabel('Name').fill('Ada Okafor');
    await form.getByLabel('Email address').fill('ada.okafor@example.com');
    await form.getByLabel('Street address').fill('1 Main Street');
    await form.getByLabel('City').fill('Springfield');
    await form.getByLabel('State or region').fill('IL');
    await form.getByLabel('Postal code').fill('62701');
    await expectAccessible(page, 'Payees');
    await form.getByRole('button', { name: 'Add the payee' }).click();
    await settled(page, 'Ada Okafor');
    const payeeId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(payeeId).toBeGreaterThan(0);

    const account = page.getByRole('form', { name: 'Add an account' });
    expect(await account.getByLabel('Account holder').inputValue()).toBe('Ada Okafor');
    await account.getByLabel('Bank name').fill('First Hudson Bank');
    await account.getByLabel('Routing number').fill('021000021');
    await account.getByLabel('Account number').fill('000555666777');
    await account.getByRole('button', { name: 'Add the account' }).click();
    await account
      .getByRole('status')
      .filter({ hasText: /^Account pa_\w+ added\.$/ })
      .waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Accounts' }).locator('tbody tr').count()).toBe(1);
    await expectAccessible(page, 'Ada Okafor');

    await page.getByRole('link', { name: "This payee's payouts" }).click();
    await settled(page, 'Payouts');
    const send = page.getByRole('form', { name: 'Send a payout' });
    expect(await send.getByLabel('Payee id').inputValue()).toBe(String(payeeId));
    // Refused, the form says which field and keeps what was typed.
    watched.provoked.push('400 /v1/payouts');
    await send.getByLabel(/^Amount/).fill('0');
    await send.getByRole('button', { name: 'Send the payout' }).click();
    await send.getByRole('alert').filter({ hasText: 'Amount' }).waitFor();
    expect(await send.getByLabel('Payee id').inputValue()).toBe(String(payeeId));
    await send.getByLabel(/^Amount/).fill('42.50');
    await send.getByLabel(/^Description/).fill('Sent from the console');
    await send.getByRole('button', { name: 'Send the payout' }).click();
    await settled(page, /^Payout po_/);
    await page.locator('.facts').getByRole('link', { name: 'Ada Okafor' }).waitFor();
    const made = new URL(page.url()).pathname.split('/').pop()!;
    const api = createMerchantClient({ baseUrl: origin, credentials });
    expect(
      await unwrap(api.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: made } } })),
    ).toMatchObject({
      PayeeId: payeeId,
      Amount: '42.50',
      Currency: 'USD',
      Description: 'Sent from the console',
    });
    await expectAccessible(page, /^Payout po_/);
  });

  it('shows today’s payouts by state, the latest payouts by payee name, and the failed deliveries on its overview', async () => {
    const { page } = watched;
    await follow(page, 'Overview');
    await settled(page, 'Northwind Logistics');
    const api = createMerchantClient({ baseUrl: origin, credentials });
    const all = (await unwrap(api.GET('/v1/payouts', { params: { query: { PageSize: 100 } } }))).data;
    const today = page.getByRole('region', { name: "Today's payouts" });
    await today
      .getByRole('status')
      .filter({ hasText: `${all.length} payouts created since midnight.` })
      .waitFor();
    for (const state of new Set(all.map((p) => p.Status))) {
      const row = today.getByRole('row').filter({ has: page.getByRole('link', { name: state }) });
      expect(await row.innerText(), state).toContain(String(all.filter((p) => p.Status === state).length));
    }
    const latest = page.getByRole('region', { name: 'Latest payouts' });
    await latest.getByRole('row').filter({ hasText: all[0]!.PayoutUniqueReference }).filter({ hasText: 'Ada Okafor' }).waitFor();
    const failed = page.getByRole('region', { name: 'Failed deliveries, last 24 hours' });
    await failed
      .getByRole('status')
      .filter({ hasText: /^\d+ failed deliver(y|ies)\.$/ })
      .waitFor();
    await expectAccessible(page, 'Northwind Logistics');
  });

  it('opens a page that says so for a payee, registration or event that does not exist', async () => {
    const { page } = watched;
    // Each page reads what hangs off the resource too (a payee's accounts, a registration's deliveries): 404s as well.
    watched.provoked.push('404 /v1/payees/999999999/accounts', '404 /v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries');
    for (const [path, apiPath, heading, says] of [
      ['/payees/999999999', '/v1/payees/999999999', 'No such payee', /999999999/],
      [
        '/webhooks/00000000-0000-4000-8000-000000000000',
        '/v1/webhooks/00000000-0000-4000-8000-000000000000',
        'No such registration',
        /00000000-0000-4000-8000-000000000000/,
      ],
      [
        '/events/evt_00000000000000000000000000',
        '/v1/events/evt_00000000000000000000000000',
        'No such event',
        /evt_00000000000000000000000000/,
      ],
    ] as const) {
      watched.provoked.push(`404 ${apiPath}`);
      await page.goto(`${origin}/console${path}`);
      await settled(page, heading);
      await page.getByRole('alert').filter({ hasText: says }).waitFor();
      await expectAccessible(page, heading);
    }
  });

  it('fits a phone: the page starts on the first screen and nothing scrolls the page sideways', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', isMobile: true, hasTouch: true });
    const watchedPhone = watch(await phone.newPage(), origin);
    const { page } = watchedPhone;
    try {
      await signIn(page, origin, merchant.email);
      for (const [path, heading] of [
        ['/', 'Northwind Logistics'],
        ['/payouts', 'Payouts'],
        [`/payouts/${reference}`, `Payout ${reference}`],
        ['/payees', 'Payees'],
        ['/webhooks', 'Webhooks'],
        ['/request-log', 'Request log'],
      ] as const) {
        await page.goto(`${origin}/console${path}`);
        await expectAccessible(page, heading);
        const layout = (await page.evaluate(() => {
          const d = (globalThis as unknown as PageGlobals).document;
          const h1 = d.querySelector('h1')!.getBoundingClientRect();
          type Box = { tagName: string; className: string; getBoundingClientRect(): { right: number } };
          const wide = [...(d as unknown as { querySelectorAll(s: string): Iterable<Box> }).querySelectorAll('main *')]
            .filter((e) => e.getBoundingClientRect().right > 391)
            .slice(0, 5)
            .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
          return { width: d.documentElement.scrollWidth, headingTop: h1.top, wide };
        })) as { width: number; headingTop: number; wide: string[] };
        expect(layout.width, `${path} is no wider than the screen: ${layout.wide.join('; ')}`).toBeLessThanOrEqual(390);
        expect(layout.headingTop, `${path} starts on the first screen`).toBeLessThan(844 / 3);
        await page.screenshot({ path: `test-results/console-phone-${kind.name}${path.replace(/\W+/g, '-')}.png`, fullPage: false });
      }
      expect(watchedPhone.offsite).toEqual([]);
      expect(watchedPhone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it('has no serious accessibility violation on its other pages', async () => {
    const { page } = watched;
    for (const [link, heading] of [
      ['Payees', 'Payees'],
      ['Banking', 'Banking'],
      ['Events', 'Events'],
      ['Sandbox', 'Sandbox'],
    ] as const) {
      await follow(page, link);
      await expectAccessible(page, heading);
    }
    await follow(page, 'Payees');
    await settled(page, 'Payees');
    await page.getByRole('row').filter({ hasText: 'Maria Gonzalez' }).getByRole('link').first().click();
    await expectAccessible(page, 'Maria Gonzalez');
    await page.goto(`${origin}/console/webhooks/${webhookId}`);
    await expectAccessible(page, 'Webhook registration');
    await page.goto(`${origin}/console/no/such/page`);
    await expectAccessible(page, 'Not found');
    // The check itself sees a violation: an image without a text alternative, put on the page by hand.
    await page.evaluate(
      "document.querySelector('main').append(Object.assign(document.createElement('img'), { src: '/console/favicon.svg' }))",
    );
    expect(await seriousViolations(page)).toEqual([expect.stringMatching(/^image-alt \(critical\)/)]);
  });

  it('signs out: the cookie is gone and the old session is refused', async () => {
    const { page } = watched;
    const [cookie] = await context.cookies(origin);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    expect(await context.cookies(origin)).toEqual([]);
    const again = await fetch(`${origin}/console/api/session`, { headers: { cookie: `${cookie!.name}=${cookie!.value}` } });
    expect(again.status).toBe(401);
  });

  it('shows a partner its linked merchants and their payments only', async () => {
    const partnerContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const partnerPage = watch(await partnerContext.newPage(), origin);
    try {
      await signIn(partnerPage.page, origin, partner.email);
      const page = partnerPage.page;
      await follow(page, 'Payments');
      await expectAccessible(page, 'Payments');
      const rows = page.locator('tbody tr');
      expect(await rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain(String(merchant.merchantId));
      await rows.first().getByRole('link').click();
      await expectAccessible(page, /^Payment \d+$/);
      expect(await page.locator('.facts').innerText()).toContain('For the linked merchant');
      await follow(page, 'Linked merchants');
      await expectAccessible(page, 'Linked merchants');
      const merchants = await page.locator('tbody').innerText();
      expect(merchants).toContain('Northwind Logistics');
      expect(merchants).not.toContain('Blue Harbor Goods');
      for (const [link, heading] of [
        ['Events', 'Events'],
        ['Webhooks', 'Webhooks'],
        ['Credentials', 'Credentials'],
        ['Request log', 'Request log'],
        ['Sandbox', 'Sandbox'],
      ] as const) {
        await follow(page, link);
        await expectAccessible(page, heading);
      }
      expect(partnerPage.offsite).toEqual([]);
      expect(partnerPage.errors).toEqual([]);
    } finally {
      await partnerContext.close();
    }
  });

  it('refuses a form posted from another site, and from another origin of the same site', async () => {
    await signIn(watched.page, origin, merchant.email);
    const count = async () =>
      Number(await watched.page.evaluate("fetch('/console/api/credentials').then((r) => r.json()).then((b) => b.data.length)"));
    const before = await count();
    const target = `${origin}/console/api/credentials`;
    const forger = await formPage(target);
    const forgerPort = (forger.address() as AddressInfo).port;
    const elsewhere = await context.newPage(); // the signed-in browser, on another page
    try {
      // localhost is another site than 127.0.0.1 (the cookie stays home); 127.0.0.1 on another port is the same site
      // but another origin (the cookie goes along, and the Origin check refuses it).
      for (const page of [`http://localhost:${forgerPort}/`, `http://127.0.0.1:${forgerPort}/`]) {
        const posted = elsewhere.waitForResponse((r) => r.url() === target && r.request().method() === 'POST');
        await elsewhere.goto(page);
        expect([401, 403], page).toContain((await posted).status());
      }
    } finally {
      await elsewhere.close();
      forger.close();
    }
    expect(await count()).toBe(before);
  });

  it('refuses a session past its idle limit, and sends the reader back to sign in', async () => {
    const { page } = watched;
    await follow(page, 'Events');
    await settled(page, 'Events');
    const [cookie] = await context.cookies(origin);
    offset += idleMs + 1_000;
    const refused = await fetch(`${origin}/console/api/session`, { headers: { cookie: `${cookie!.name}=${cookie!.value}` } });
    expect(refused.status).toBe(401);
    await follow(page, 'Credentials');
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.getByText('Your session ended. Sign in again to go on.').waitFor();
  });

  it('asked nothing of any other origin, and no page logged an error', () => {
    expect(watched.offsite).toEqual([]);
    expect(watched.errors).toEqual([]);
  });
});
