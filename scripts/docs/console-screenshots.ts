// `npm run docs:screenshots`: one PNG of each page of the web console, into docs/console/ (the docs build copies
// them to docs/dist/console/, where the overview and the console guide show them), and with `--copy-to <dir>` also
// there. It runs the service as `npm start` does (a child process over a fresh SQLite store, the sandbox at full
// pace, webhooks allowed to a local receiver), provisions a merchant, a partner and a console user of each with the
// admin CLI, fills them through the public API with the client package, then signs in with Debian's Chromium
// (driven by playwright-core) and photographs each page once it has loaded.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { createBankingClient, createMerchantClient, createPartnerClient, type MerchantClient, unwrap } from '../../client/index.js';
import { freePort } from '../mock/free-ports.js';
import { type ConsoleShot, consoleShots, screenshotSize, screenshotsDir } from './console-pages.js';
import { repoRoot } from './contract.js';

export const chromiumPath = '/usr/bin/chromium';

const run = promisify(execFile);
const password = 'console tour password';
const address = { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' };
const bankAccount = (accountNumber: string) => ({
  type: 'BANK_ACCOUNT' as const,
  accountHolderName: 'Maria Gonzalez',
  bankName: 'First Hudson Bank',
  routingNumber: '021000021',
  accountNumber,
  accountType: 'CHECKINGS' as const,
  Currency: 'USD',
});

/** `npm run --silent admin -- ...args --json` against the store at `databaseUrl`. */
async function admin(databaseUrl: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args, '--json'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  return JSON.parse(stdout);
}

async function waitForHealth(baseUrl: string, server: { exitCode: number | null }): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error('The service stopped before it answered.');
    const ok = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The service did not answer /health within 30 s.');
}

/** The newest state of a payout, read until it is `want` (the sandbox moves it at once; bounded). */
async function payoutReaches(client: MerchantClient, reference: string, want: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const payout = await unwrap(
      client.GET('/v1/payouts/{PayoutUniqueReference}', { params: { path: { PayoutUniqueReference: reference } } }),
    );
    if (payout.Status === want) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`payout ${reference} did not reach ${want}`);
}

interface Tour {
  merchantEmail: string;
  partnerEmail: string;
  returnedPayout: string;
  heldPayout: string;
  payeeId: number;
  businessId: number;
  accountId: number;
  transferId: number;
  webhookId: string;
  paymentId: number;
}

/** A merchant with payees, payouts in several states, a webhook and its deliveries, banking; a partner with a payment. */
async function provision(baseUrl: string, databaseUrl: string, receiver: string): Promise<Tour> {
  const merchant = await admin(databaseUrl, 'create-merchant', '--name', 'Northwind Logistics');
  const merchantId = String(merchant.merchantId);
  const merchantEmail = 'ada@northwind.example';
  await admin(databaseUrl, 'create-console-user', '--merchant', merchantId, '--email', merchantEmail, '--password', password);
  const credentials = { clientId: String(merchant.clientId), clientSecret: String(merchant.clientSecret) };
  const a = createMerchantClient({ baseUrl, credentials });
  const d = createBankingClient({ baseUrl, credentials });

  const webhook = await unwrap(a.POST('/v1/webhooks', { body: { url: receiver, signed: true } }));
  const payee = await unwrap(
    a.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Maria Gonzalez', EmailAddress: 'maria@example.com', address } }),
  );
  await unwrap(
    a.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Chen Wei', EmailAddress: 'chen.wei@example.com', address } }),
  );
  const good = await unwrap(a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount('000123456789') }));
  const closed = await unwrap(
    a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount('000987650001') }),
  );
  const pay = (Amount: number, Description: string, PayeeAccountId: string, hold = false) =>
    unwrap(
      a.POST('/v1/payouts', {
        body: { PayeeId: payee.id, PayeeAccountId, Amount, Currency: 'USD', Description, ...(hold ? { Sandbox: { Hold: true } } : {}) },
      }),
    );
  const completed = await pay(1250, 'November commission', good.PayeeAccountId);
  const returned = await pay(310.5, 'October refund', good.PayeeAccountId);
  await pay(88, 'Referral bonus', closed.PayeeAccountId);
  const held = await pay(42, 'Held for review', good.PayeeAccountId, true);
  await payoutReaches(a, completed.PayoutUniqueReference, 'completed');
  await payoutReaches(a, returned.PayoutUniqueReference, 'completed');
  await unwrap(
    a.POST('/v1/simulations/payouts/{PayoutUniqueReference}/return', {
      params: { path: { PayoutUniqueReference: returned.PayoutUniqueReference } },
      body: { ReturnCode: 'R03' },
    }),
  );
  await unwrap(a.POST('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));

  const business = await unwrap(
    d.POST('/finance/api/v1/business', {
      body: {
        legalName: 'Northwind Logistics LLC',
        dbaName: 'Northwind Freight',
        entityType: 'LLC',
        taxId: '12-3456789',
        formationDate: '2019-03-14',
        incorporationCountry: 'US',
        incorporationState: 'DE',
        address: { line1: '233 South Wacker Drive', city: 'Chicago', state: 'IL', postalCode: '60606', countryCode: 'US' },
        phone: '+13125550198',
        email: 'treasury@northwind.example',
      },
    }),
  );
  await unwrap(d.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }));
  const account = await unwrap(
    d.POST('/finance/api/v1/account/{businessId}', {
      params: { path: { businessId: business.id } },
      body: { accountName: 'Operating', accountType: 'CHECKING' },
    }),
  );
  await unwrap(
    d.POST('/finance/api/v1/simulations/inbound-transfer', {
      body: {
        accountId: account.id,
        amount: 5000,
        currency: 'USD',
        rail: 'ACH',
        originatorName: 'Globex Payroll',
        description: 'Initial funding',
      },
    }),
  );
  const counterparty = await unwrap(
    d.POST('/finance/api/v1/counterparty', {
      body: {
        businessId: business.id,
        name: 'Acme Supplies Inc.',
        type: 'BUSINESS',
        email: 'ar@acme-supplies.example',
        ach: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
      },
    }),
  );
  const transfer = await unwrap(
    d.POST('/finance/api/v1/transaction/ach/push', {
      body: {
        accountId: account.id,
        counterpartyId: counterparty.id,
        amount: 1250,
        currency: 'USD',
        description: 'Supplier invoice 0042',
        secCode: 'CCD',
      },
    }),
  );

  const partner = await admin(databaseUrl, 'create-partner', '--name', 'Harbor Payments');
  const partnerId = String(partner.partnerId);
  await admin(databaseUrl, 'link', '--partner', partnerId, '--merchant', merchantId);
  const partnerEmail = 'grace@harbor.example';
  await admin(databaseUrl, 'create-console-user', '--partner', partnerId, '--email', partnerEmail, '--password', password);
  const c = createPartnerClient({
    baseUrl,
    credentials: { clientId: String(partner.clientId), clientSecret: String(partner.clientSecret) },
  });
  const recipient = await unwrap(
    c.POST('/finance/v1/recipient-ach', {
      body: {
        merchantId: Number(merchantId),
        email: 'maria.gonzalez@example.com',
        name: 'Maria Gonzalez',
        type: 'INDIVIDUAL',
        ach: {
          accountNumber: '000123456789',
          bankAccountType: 'CHECKING',
          bankName: 'JPMorgan Chase Bank, N.A.',
          routingNumber: '021000021',
          address: { line1: '350 Fifth Avenue', city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US', type: 'RESIDENCE' },
        },
      },
    }),
  );
  const payment = await unwrap(
    c.POST('/finance/v1/payment_request', {
      body: {
        merchantId: Number(merchantId),
        payeeId: recipient.id,
        amount: 1250,
        currency: 'USD',
        paymentMethodType: 'STANDARD',
        description: 'November commission',
        externalId: 'INV-2026-11-0042',
      },
    }),
  );
  await unwrap(c.POST('/finance/v1/webhooks', { body: { url: receiver, signed: true } }));

  return {
    merchantEmail,
    partnerEmail,
    returnedPayout: returned.PayoutUniqueReference,
    heldPayout: held.PayoutUniqueReference,
    payeeId: payee.id,
    businessId: business.id,
    accountId: account.id,
    transferId: transfer.id,
    webhookId: webhook.id,
    paymentId: payment.paymentId,
  };
}

/** Opens a console path and waits until the page has asked for everything it shows and has its heading. */
async function open(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}/console${path}`);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  // A function, not a string: the page's policy refuses eval, and Playwright evaluates a string predicate with it.
  await page.waitForFunction(
    () => !(globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText.includes('Loading'),
  );
}

async function signIn(page: Page, baseUrl: string, email: string): Promise<void> {
  await open(page, baseUrl, '/sign-in');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

export async function takeConsoleScreenshots(outDir = screenshotsDir, copyTo?: string): Promise<string[]> {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} does not exist: apt-get install -y --no-install-recommends chromium`);
  const work = await mkdtemp(join(tmpdir(), 'console-shots-'));
  const databaseUrl = join(work, 'console.sqlite');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverAddress = receiver.address();
  const receiverUrl = `http://127.0.0.1:${typeof receiverAddress === 'object' && receiverAddress ? receiverAddress.port : 0}/hooks`;
  const server = spawn(process.execPath, ['scripts/build/start-server.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SANDBOX_STEP_MS: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox'] });
  const written: string[] = [];
  try {
    await waitForHealth(baseUrl, server);
    const tour = await provision(baseUrl, databaseUrl, receiverUrl);
    await mkdir(outDir, { recursive: true });
    const context = await browser.newContext({
      viewport: screenshotSize,
      colorScheme: 'light',
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    const shoot = async (name: ConsoleShot) => {
      const file = join(outDir, `${name}.png`);
      // The viewport, not the whole page: every picture the same size, the top of each page where its point is.
      await page.screenshot({ path: file });
      written.push(file);
    };

    await open(page, baseUrl, '/sign-in');
    await page.getByLabel('Email address').fill(tour.merchantEmail);
    await shoot('sign-in');
    await signIn(page, baseUrl, tour.merchantEmail);
    const merchantPages: [ConsoleShot, string][] = [
      ['overview', '/'],
      ['payouts', '/payouts'],
      ['payout', `/payouts/${tour.returnedPayout}`],
      ['payees', '/payees'],
      ['payee', `/payees/${tour.payeeId}`],
      ['banking', '/banking'],
      ['business', `/banking/businesses/${tour.businessId}`],
      ['account', `/banking/accounts/${tour.accountId}`],
      ['transfer', `/banking/transfers/${tour.transferId}`],
      ['webhooks', '/webhooks'],
      ['webhook', `/webhooks/${tour.webhookId}`],
      ['request-log', '/request-log'],
    ];
    for (const [name, path] of merchantPages) {
      await open(page, baseUrl, path);
      if (name === 'payout') await page.locator('section[aria-labelledby="payout-events"] details').first().locator('summary').click();
      await shoot(name);
    }
    await open(page, baseUrl, '/events');
    await page.locator('.event-list details').first().locator('summary').click();
    await shoot('events');
    await open(page, baseUrl, '/credentials');
    await page.getByRole('button', { name: 'Create a credential' }).click();
    await page.getByRole('heading', { name: 'Client Secret' }).waitFor();
    await page.waitForLoadState('networkidle');
    await shoot('credentials');
    await open(page, baseUrl, '/sandbox');
    await page.getByLabel('Payout reference').fill(tour.heldPayout);
    await page.getByRole('button', { name: 'Choose' }).first().click();
    await page.getByRole('button', { name: 'Release a held payout' }).click();
    await page.locator('.simulation-result').waitFor();
    await shoot('sandbox');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    await signIn(page, baseUrl, tour.partnerEmail);
    for (const [name, path] of [
      ['partner-payments', '/payments'],
      ['partner-payment', `/payments/${tour.paymentId}`],
      ['partner-merchants', '/merchants'],
    ] as const) {
      await open(page, baseUrl, path);
      await shoot(name);
    }
    const missing = consoleShots.map((s) => s.name).filter((name) => !written.some((file) => file.endsWith(`/${name}.png`)));
    if (missing.length > 0) throw new Error(`No screenshot of ${missing.join(', ')}: add each page of console-pages.ts to the tour.`);
    if (copyTo) {
      await mkdir(copyTo, { recursive: true });
      for (const file of written) await copyFile(file, join(copyTo, file.slice(file.lastIndexOf('/') + 1)));
    }
    return written;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
    receiver.close();
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const copyIndex = process.argv.indexOf('--copy-to');
  const copyTo = copyIndex > 0 ? process.argv[copyIndex + 1] : undefined;
  const started = Date.now();
  try {
    const written = await takeConsoleScreenshots(screenshotsDir, copyTo);
    console.log(
      `Took ${written.length} screenshots into docs/console/${copyTo ? ` and ${copyTo}` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
