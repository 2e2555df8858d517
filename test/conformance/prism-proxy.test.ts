// The end-to-end scenarios of every group, sent through `prism proxy --errors` in front of the real service
// with the generated clients: Prism validates each request and each response against the bundled document,
// so a single contract violation either way fails the suite (Prism answers it with its own problem, marks it
// in an `sl-violations` header and logs it). Every answer must be the upstream's own (it echoes our
// X-Request-Id), carry no violation header, and Prism must log no violation. Two negative checks prove the
// proxy would catch one: an invalid request is refused before it reaches the service, and a response that
// breaks the contract (from a tiny upstream answering a wrong body) is replaced by Prism's problem.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
  createBankingClient,
  createCounterpartyClient,
  createMerchantClient,
  createPartnerClient,
  createPlatformClient,
} from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import type { components as PartnerSchemas } from '../../generated/partner/schema.js';
import type { components as CounterpartySchemas } from '../../generated/counterparty/schema.js';
import { groups, type Group } from '../../generated/index.js';
import { bundles, resolve, validatorAt } from '../support/contract.js';
import { lostPortRace, suitePortRange } from '../support/ports.js';
import { bankAccount, individual } from '../support/merchants.js';
import { documentedRequest } from '../support/partners.js';
import { startService, type RunningService } from '../support/service.js';
import { settled } from '../support/settled-transfer.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startPrismProxy, type PrismProxy } from './prism-proxy-process.js';

const documentOf = (group: Group) => `generated/${group}/openapi.json`;

interface Exchange {
  proxy: string;
  method: string;
  path: string;
  status: number;
  /** The service echoes the X-Request-Id it was sent: a Prism-made answer does not. */
  fromUpstream: boolean;
  violations: string | null;
}

let service: RunningService;
let drop: () => Promise<void>;
let receiver: WebhookReceiver;
let badUpstream: Server;
const proxies = {} as Record<Group | 'platformAuth' | 'broken', PrismProxy>;
const exchanges: Exchange[] = [];

/** The fetch every client sends through: records what came back, and from whom. */
async function through(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const sentId = request.headers.get('x-request-id');
  const response = await globalThis.fetch(request);
  exchanges.push({
    proxy: url.origin,
    method: request.method,
    path: url.pathname,
    status: response.status,
    fromUpstream: sentId !== null && response.headers.get('x-request-id') === sentId,
    violations: response.headers.get('sl-violations'),
  });
  return response;
}

beforeAll(async () => {
  const db = await stores[0]!.fresh(); // SQLite: the contract does not depend on the store
  drop = db.drop;
  // The payout engine starts by hand (in the merchant scenario), so that a payout can be cancelled first.
  service = await startService(db.url, { sandboxStepMs: 0 }, { workers: false });
  service.services.dispatcher.start();
  service.services.paymentEngine.start();
  service.services.transferEngine.start();
  receiver = await startReceiver();
  badUpstream = createServer((_req, res) => {
    // A payee whose id is a string and without its required fields: a response that breaks the contract.
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'not-a-number', name: 42 }));
  });
  await new Promise<void>((r) => badUpstream.listen(0, '127.0.0.1', r));
  const badOrigin = `http://127.0.0.1:${(badUpstream.address() as AddressInfo).port}`;

  // Prism joins the upstream's path with the request's path and ignores the document's server paths: group
  // B's proxy therefore forwards to `<origin>/payouts`, and B's token operation (at `{auth_url}`, the
  // origin) goes through a second proxy of the same document whose upstream is the origin.
  const plan: [keyof typeof proxies, Group, string][] = [
    ...groups.map((g) => [g, g, g === 'platform' ? `${service.baseUrl}/payouts` : service.baseUrl] as [Group, Group, string]),
    ['platformAuth', 'platform', service.baseUrl],
    ['broken', 'merchant', badOrigin],
  ];
  // Another run on the machine may take the ports between the scan and Prism's start: then all start again elsewhere.
  for (let attempt = 1; ; attempt += 1) {
    const base = await suitePortRange(plan.length, 5600, 6600);
    const started = await Promise.allSettled(
      plan.map(([name, group, upstream], i) => startPrismProxy(documentOf(group), upstream, base + i).then((p) => [name, p] as const)),
    );
    const failed = started.find((s) => s.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failed && lostPortRace(failed.reason) && attempt < 3) {
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value[1].stop() : undefined)));
      continue;
    }
    for (const s of started) if (s.status === 'fulfilled') proxies[s.value[0]] = s.value[1];
    if (failed) throw failed.reason;
    break;
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(proxies).map((p) => p.stop()));
  await new Promise((r) => badUpstream?.close(r));
  await receiver?.close();
  await service?.stop();
  await drop?.();
});

const conformanceProxies = () => [...groups, 'platformAuth' as const].map((name) => proxies[name]);

/** Each conformance proxy once every line about the exchanges so far has arrived, with how many lines precede. */
async function barriers(): Promise<Map<PrismProxy, number>> {
  return new Map(await Promise.all(conformanceProxies().map(async (p) => [p, await p.barrier()] as const)));
}

/** Where a scenario starts: its checks look only at the exchanges and Prism lines after this point. */
async function checkpoint(): Promise<{ exchanges: number; lines: Map<PrismProxy, number> }> {
  await barriers(); // the previous scenario's last lines belong to it
  const at = exchanges.length;
  // A scenario that stops at Prism's own problem (unwrap throws) shows which exchange Prism objected to.
  onTestFailed(() => {
    const objected = exchanges.slice(at).filter((e) => !e.fromUpstream || e.violations !== null);
    if (objected.length > 0) console.error('Exchanges answered or marked by Prism:', JSON.stringify(objected, null, 2));
  });
  return { exchanges: exchanges.length, lines: new Map(conformanceProxies().map((p) => [p, p.lines.length])) };
}

/** Every exchange since the checkpoint came from the service without a violation, and no proxy logged one. */
async function expectConformant(since: Awaited<ReturnType<typeof checkpoint>>): Promise<void> {
  const ends = await barriers(); // every line of the scenario is in, up to its end
  const origins = new Set(conformanceProxies().map((p) => p.url));
  const scenario = exchanges.slice(since.exchanges).filter((e) => origins.has(e.proxy));
  expect(scenario.length).toBeGreaterThan(0);
  expect(scenario.filter((e) => !e.fromUpstream || e.violations !== null)).toEqual([]);
  expect(conformanceProxies().flatMap((p) => p.violations(since.lines.get(p), ends.get(p)))).toEqual([]);
}

const merchantCredentials = async (name: string) => {
  const c = await service.services.credentials.createMerchant(name);
  return { merchantId: c.merchantId, credentials: { clientId: c.clientId, clientSecret: c.clientSecret } };
};

/** Each payout event body validates against the contract's payload for its event. */
function expectDocumentedEvent(body: string): void {
  const event = JSON.parse(body) as { state: string };
  const doc = bundles.merchant;
  const requestBody = resolve(doc, doc.webhooks[`payout.${event.state}`].post.requestBody);
  const schema = requestBody.content['application/json'].schema;
  const validate = validatorAt(
    'merchant',
    schema.$ref ? schema.$ref : `#/webhooks/payout.${event.state}/post/requestBody/content/application~1json/schema`,
  );
  expect(validate(event), `${body}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

describe('groups A and B through their proxies', () => {
  it('payee → account → fee → payouts → cancel → list, with webhook registration and every event delivered', async () => {
    const since = await checkpoint();
    const { merchantId, credentials } = await merchantCredentials('Acme');
    const a = createMerchantClient({ baseUrl: proxies.merchant.url, credentials, fetch: through });
    const b = createPlatformClient({ baseUrl: proxies.platform.url, authUrl: proxies.platformAuth.url, credentials, fetch: through });

    const hook = await unwrap(a.POST('/v1/webhooks', { body: { url: `${receiver.url}/acme` } }));
    const spare = await unwrap(
      a.POST('/v1/webhooks', { body: { url: `${receiver.url}/spare`, events: ['payout.failed'], environment: 'production' } }),
    );
    expect((await unwrap(a.GET('/v1/webhooks'))).map((w) => w.id)).toEqual([hook.id, spare.id]);
    expect((await a.DELETE('/v1/webhooks', { params: { query: { id: spare.id } } })).response.status).toBe(204);

    const payee = await unwrap(a.POST('/v1/payees', { body: individual }));
    expect(await unwrap(a.GET('/v1/payees/{id}', { params: { path: { id: payee.id } } }))).toMatchObject({
      id: payee.id,
      name: individual.name,
    });
    await unwrap(
      a.PATCH('/v1/payees/{id}', { params: { path: { id: payee.id } }, body: { address: individual.address, name: 'Maria G. Gonzalez' } }),
    );
    expect((await unwrap(a.POST('/v1/payees/list', { body: { name: 'gonzalez' } }))).map((p) => p.id)).toContain(payee.id);
    const path = { id: payee.id };
    const account = await unwrap(a.POST('/v1/payees/{id}/accounts', { params: { path }, body: bankAccount() }));
    const old = await unwrap(a.POST('/v1/payees/{id}/accounts', { params: { path }, body: bankAccount('000999888777') }));
    await unwrap(
      a.PATCH('/v1/payees/{id}/accounts/{account_id}', {
        params: { path: { ...path, account_id: old.PayeeAccountId } },
        body: bankAccount('000999888776'),
      }),
    );
    await unwrap(a.DELETE('/v1/payees/{id}/accounts/{account_id}', { params: { path: { ...path, account_id: old.PayeeAccountId } } }));
    expect(
      await unwrap(a.GET('/v1/payees/{id}/accounts/{account_id}', { params: { path: { ...path, account_id: account.PayeeAccountId } } })),
    ).toMatchObject({ accountNumber: expect.any(String) });
    expect((await unwrap(a.GET('/v1/payees/{id}/accounts', { params: { path } }))).length).toBe(2);

    const fee = await unwrap(
      b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'US', currency: 'USD', rail: 'ACH', amount: 1250 } }),
    );
    expect(fee.totalFee).toMatch(/^\d+\.\d{2}$/);

    const paid = await unwrap(
      a.POST('/v1/payouts', {
        params: { header: { 'Idempotency-Key': `conformance-${merchantId}` } },
        body: { PayeeId: payee.id, Amount: 1250, Currency: 'USD', Description: 'November commission' },
      }),
    );
    const cancelled = await unwrap(
      a.POST('/v1/payouts', { body: { PayeeId: payee.id, PayeeAccountId: account.PayeeAccountId, Amount: 80, Currency: 'USD' } }),
    );
    const viaB = await unwrap(b.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 15, Currency: 'USD' } }));
    const cancel = await unwrap(
      a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', {
        params: { path: { PayoutUniqueReference: cancelled.PayoutUniqueReference } },
      }),
    );
    expect(cancel.Status).toBe('cancelled');

    service.services.engine.start();
    for (const reference of [paid.PayoutUniqueReference, viaB.PayoutUniqueReference]) {
      const params = { path: { PayoutUniqueReference: reference } };
      const status = async () => (await unwrap(a.GET('/v1/payouts/{PayoutUniqueReference}', { params }))).Status;
      await expect.poll(status, { timeout: 10_000, interval: 50, message: `payout ${reference} completes` }).toBe('completed');
    }
    const listed = await unwrap(a.GET('/v1/payouts', { params: { query: { PayeeId: payee.id, PageSize: 10 } } }));
    expect(listed.data.map((p) => [p.PayoutUniqueReference, p.Status]).sort()).toEqual(
      [
        [paid.PayoutUniqueReference, 'completed'],
        [cancelled.PayoutUniqueReference, 'cancelled'],
        [viaB.PayoutUniqueReference, 'completed'],
      ].sort(),
    );
    const listedViaB = await unwrap(b.GET('/v1/payouts', { params: { query: { Status: 'completed' } } }));
    expect(listedViaB.data.map((p) => p.PayoutUniqueReference)).toContain(viaB.PayoutUniqueReference);

    const fromB = await unwrap(b.POST('/v1/payees/Create', { body: { ...individual, name: 'Via Platform' } }));
    expect(await unwrap(b.GET('/v1/payees/{id}', { params: { path: { id: fromB.id } } }))).toMatchObject({ name: 'Via Platform' });
    expect((await unwrap(b.POST('/v1/payees/list', { body: { name: 'via platform' } }))).map((p) => p.id)).toEqual([fromB.id]);

    // The service's refusals are documented answers too (and an unknown token reaches it: Prism only checks
    // that one is sent).
    expect((await a.GET('/v1/payees/{id}', { params: { path: { id: 987_654 } } })).response.status).toBe(404);
    expect(
      (
        await a.POST('/v1/payouts/{PayoutUniqueReference}/cancel', {
          params: { path: { PayoutUniqueReference: paid.PayoutUniqueReference } },
        })
      ).response.status,
    ).toBe(409);
    expect((await a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 12.555, Currency: 'USD' } })).response.status).toBe(422);
    expect(
      (await b.POST('/api/v1/fees/calculate', { body: { destinationCountry: 'BR', currency: 'BRL', rail: 'ACH', amount: 10 } })).response
        .status,
    ).toBe(422);
    const stranger = createMerchantClient({ baseUrl: proxies.merchant.url, token: 'not-a-token', fetch: through });
    expect((await stranger.GET('/v1/webhooks')).response.status).toBe(401);

    // 4 + 4 events for the completed payouts, 2 for the cancelled one; each one as the contract documents it.
    const deliveries = await receiver.waitFor(10, (d) => d.path === '/acme');
    for (const d of deliveries) expectDocumentedEvent(d.body);
    await expectConformant(since);
  });
});

describe('groups C and E through their proxies', () => {
  type Ach = PartnerSchemas['schemas']['AchRecipientRequest'];
  type Wire = PartnerSchemas['schemas']['WireRecipientRequest'];
  type Counterparty = CounterpartySchemas['schemas']['CounterpartyCreateRequest'];

  it('partner tokens, merchants, recipients, payment requests and both searches', async () => {
    const since = await checkpoint();
    const { merchantId } = await merchantCredentials('Globex');
    const partner = await service.services.credentials.createPartner('Partner');
    await service.services.credentials.link(partner.partnerId, merchantId);
    const credentials = { clientId: partner.clientId, clientSecret: partner.clientSecret };
    const c = createPartnerClient({ baseUrl: proxies.partner.url, credentials, fetch: through });
    const e = createCounterpartyClient({ baseUrl: proxies.counterparty.url, credentials, fetch: through });

    expect(await unwrap(c.POST('/finance/v1/generate-token', { body: credentials }))).toMatchObject({ token_type: 'Bearer' });
    expect(await unwrap(e.POST('/api/v1/generate-token', { body: credentials }))).toMatchObject({ token_type: 'Bearer' });
    expect(
      (await unwrap(c.GET('/finance/v1/partner/list', { params: { query: { partnerId: partner.partnerId } } }))).data.map(
        (m) => m.merchantId,
      ),
    ).toEqual([merchantId]);

    const ach = await unwrap(
      c.POST('/finance/v1/recipient-ach', {
        body: { ...documentedRequest<Ach>('partner', '/finance/v1/recipient-ach', 'individual'), merchantId },
      }),
    );
    const wireBody = documentedRequest<Wire>('partner', '/finance/v1/recipient-wire', 'international');
    delete wireBody.partnerId;
    const wire = await unwrap(c.POST('/finance/v1/recipient-wire', { body: { ...wireBody, merchantId } }));
    const recipients = await unwrap(
      c.GET('/finance/v1/payees', { params: { query: { MerchantId: merchantId, SortProperty: 'id', PageSize: 10 } } }),
    );
    expect(recipients.data.map((r) => r.id)).toEqual([ach.id, wire.id]);

    const counterparty = await unwrap(
      e.POST('/finance/v1/payee', {
        body: { ...documentedRequest<Counterparty>('counterparty', '/finance/v1/payee', 'achIndividual'), merchantId },
      }),
    );
    const viaC = await unwrap(
      c.POST('/finance/v1/payment_request', {
        body: {
          payeeId: ach.id,
          amount: 1250,
          currency: 'USD',
          paymentMethodType: 'STANDARD',
          description: 'November commission',
          merchantId,
          externalId: 'INV-1',
        },
      }),
    );
    const viaE = await unwrap(
      e.POST('/finance/v1/payment_request', {
        body: { payeeId: counterparty.id, amount: 99.5, currency: 'USD', paymentMethodType: 'SAME_DAY', description: 'Refund', merchantId },
      }),
    );
    const search = { body: { transactionStatus: ['completed' as const] } };
    const completed = async () => (await unwrap(e.POST('/finance/v1/search_transactions', search))).totalCount;
    await expect.poll(completed, { timeout: 10_000, interval: 50, message: 'the payment requests complete' }).toBeGreaterThanOrEqual(2);
    const inC = await unwrap(c.POST('/finance/v1/partner/search_transactions', { body: { merchantId } }));
    expect(inC.data.map((t) => t.paymentId).sort()).toEqual([viaC.paymentId, viaE.paymentId].sort());
    const inE = await unwrap(e.POST('/finance/v1/search_transactions', { body: { counterpartyId: counterparty.id, minAmount: 1 } }));
    expect(inE.data.map((t) => t.paymentId)).toEqual([viaE.paymentId]);
    expect(
      (
        await c.POST('/finance/v1/recipient-ach', {
          body: { ...documentedRequest<Ach>('partner', '/finance/v1/recipient-ach', 'individual'), merchantId: 999_999 },
        })
      ).response.status,
    ).toBe(404);
    expect((await e.POST('/finance/v1/search_transactions', { body: { minAmount: 10, maxAmount: 5 } })).response.status).toBe(422);
    await expectConformant(since);
  });
});

describe('group D through its proxy', () => {
  it('business → verification → counterparty → account → every transfer → balance', async () => {
    const since = await checkpoint();
    const { credentials } = await merchantCredentials('Northwind');
    const d = createBankingClient({ baseUrl: proxies.banking.url, credentials, fetch: through });
    const usAddress = { line1: '350 Fifth Avenue', line2: null, city: 'New York', state: 'NY', postalCode: '10118', countryCode: 'US' };
    const deAddress = { line1: 'Kaiserplatz', line2: null, city: 'Frankfurt am Main', state: null, postalCode: '60311', countryCode: 'DE' };

    const business = await unwrap(
      d.POST('/finance/api/v1/business', {
        body: {
          legalName: 'Northwind Logistics LLC',
          entityType: 'LLC',
          taxId: '12-3455678',
          formationDate: '2019-03-14',
          incorporationCountry: 'US',
          incorporationState: 'DE',
          address: usAddress,
          phone: '+13125550198',
          email: 'treasury@northwind.example',
        },
      }),
    );
    const verification = await unwrap(
      d.POST('/finance/api/v1/identity-verification', { body: { businessId: business.id, subject: 'BUSINESS' } }),
    );
    expect(verification.status).toBe('approved');
    expect(await unwrap(d.GET('/finance/api/v1/business/{id}', { params: { path: { id: business.id } } }))).toMatchObject({
      id: business.id,
    });
    const ach = { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' as const };
    const supplier = await unwrap(
      d.POST('/finance/api/v1/counterparty', { body: { businessId: business.id, name: 'Acme Supplies Inc.', type: 'BUSINESS', ach } }),
    );
    const aba = await unwrap(
      d.POST('/finance/api/v1/counterparty', {
        body: {
          businessId: business.id,
          name: 'Harbor Freight Partners LLC',
          type: 'BUSINESS',
          address: usAddress,
          wire: { bankIdType: 'ABA', bankId: '026009593', accountNumber: '4455667788', bankName: 'Bank of America, N.A.' },
        },
      }),
    );
    const bic = await unwrap(
      d.POST('/finance/api/v1/counterparty', {
        body: {
          businessId: business.id,
          name: 'Mueller Maschinenbau GmbH',
          type: 'BUSINESS',
          address: deAddress,
          wire: {
            bankIdType: 'BIC',
            bankId: 'COBADEFFXXX',
            accountNumber: 'DE89370400440532013000',
            bankName: 'Commerzbank AG',
            bankAddress: deAddress,
          },
        },
      }),
    );
    const operating = await unwrap(
      d.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: business.id } }, body: { accountName: 'Operating' } }),
    );
    const reserve = await unwrap(
      d.POST('/finance/api/v1/account/{businessId}', { params: { path: { businessId: business.id } }, body: { accountName: 'Reserve' } }),
    );

    const accountId = operating.id;
    const funding = await unwrap(
      d.POST('/finance/api/v1/transaction/ach/pull', {
        body: { accountId, counterpartyId: supplier.id, amount: 25000, currency: 'USD', description: 'Funding' },
      }),
    );
    expect(funding.status).toBe('pending');
    // Read back (getTransfer, through the proxy too) until the sandbox has completed it: the debits below need it.
    await settled(d, funding.id, 'completed');
    await unwrap(
      d.POST('/finance/api/v1/transaction/ach/push', { body: { accountId, counterpartyId: supplier.id, amount: 250, currency: 'USD' } }),
    );
    await unwrap(
      d.POST('/finance/api/v1/transaction/wire/domestic', {
        body: { accountId, counterpartyId: aba.id, amount: 5000, currency: 'USD', remittanceInformation: 'Deposit order 7781' },
      }),
    );
    await unwrap(
      d.POST('/finance/api/v1/transaction/wire/international', {
        body: { accountId, counterpartyId: bic.id, amount: 1000, currency: 'EUR', purposeOfPayment: 'GOODS' },
      }),
    );
    await unwrap(
      d.POST('/finance/api/v1/transaction/internal/transfer', {
        body: { accountId, toAccountId: reserve.id, amount: 100, currency: 'USD' },
      }),
    );
    const balance = await unwrap(d.GET('/finance/api/v1/account/{accountId}/balance', { params: { path: { accountId } } }));
    expect(balance).toMatchObject({ accountId, currency: 'USD' });
    expect(Number(balance.available)).toBeLessThan(25000 - 250 - 5000 - 100);
    const over = await d.POST('/finance/api/v1/transaction/internal/transfer', {
      body: { accountId, toAccountId: reserve.id, amount: 1_000_000, currency: 'USD' },
    });
    expect(over.response.status).toBe(422);
    expect((await d.GET('/finance/api/v1/business/{id}', { params: { path: { id: 999_999 } } })).response.status).toBe(404);
    await expectConformant(since);
  });
});

describe('the proxy catches violations', () => {
  it('refuses a request that breaks the contract without forwarding it, and logs the violation', async () => {
    const { credentials } = await merchantCredentials('Strict');
    const a = createMerchantClient({ baseUrl: proxies.merchant.url, credentials, fetch: through });
    const before = (await unwrap(a.POST('/v1/payees/list', { body: {} }))).length;
    const linesBefore = proxies.merchant.violations().length;
    const { response, error } = await a.POST('/v1/payees', { body: { ...individual, name: undefined } as unknown as typeof individual });
    expect(response.status).toBe(422);
    expect(exchanges.at(-1)).toMatchObject({ status: 422, fromUpstream: false });
    expect(JSON.stringify(error)).toMatch(/name/);
    expect((await unwrap(a.POST('/v1/payees/list', { body: {} }))).length).toBe(before);
    await expect.poll(() => proxies.merchant.violations().length, { timeout: 10_000 }).toBeGreaterThan(linesBefore);
  });

  it('replaces a response that breaks the contract with its own 500 problem, and logs the violation', async () => {
    const r = await fetch(`${proxies.broken.url}/v1/payees/7`, { headers: { authorization: 'Bearer any' } });
    const body = (await r.json()) as { type: string; validation: { location: string[]; message: string }[] };
    expect(r.status).toBe(500);
    expect(body.type).toMatch(/VIOLATIONS/);
    expect(body.validation.map((v) => v.location.join('.'))).toEqual(expect.arrayContaining([expect.stringMatching(/^response\.body/)]));
    await expect.poll(() => proxies.broken.violations().length, { timeout: 10_000 }).toBeGreaterThan(0);
  });
});
