// OWASP API4:2023 Unrestricted Resource Consumption, on every operation of every group: request bodies are
// capped at 1 MiB (413 problem, JSON and form alike), every list and search caps its page size and page
// number (one over → 400 naming the parameter, the bound itself answers 200), every string and array of
// every request body is bounded (one over → 400 naming the field), absurd nesting is refused without harm,
// per-merchant collections are capped (422 limit-reached), and a burst past the per-minute budget gets
// 429 with Retry-After on every group and on the token operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorAt, type Json } from '../support/contract.js';
import { startService, type RunningService } from '../support/service.js';
import { distinctOperations, requestExamples, type ServedOperation } from '../support/operations.js';
import { fill, problemType, send } from '../support/requests.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

const mebibyte = 1_048_576;

const service = useService(':memory:', {}, { resolve: loopbackResolver });
let tenant: Tenant;
let tokens: { merchant: string; partner: string };

beforeAll(async () => {
  // A merchant and its partner holding one of everything, so a list under an object (an account's transfers, a
  // webhook's deliveries) can be asked for its largest page.
  tenant = await newTenant(service, 'Pager');
  tokens = { merchant: tenant.merchantToken, partner: tenant.partnerToken };
});

/** The operation's path naming the tenant's own objects (`id` is a webhook in A, C and E, a business in D). */
const ownPath = (o: ServedOperation) =>
  fill(o.url, {
    id: o.path.startsWith('/v1/webhooks/')
      ? tenant.ids.webhook
      : o.path.startsWith('/finance/v1/webhooks/')
        ? tenant.ids.partnerWebhook
        : o.group === 'banking'
          ? tenant.ids.business
          : tenant.ids.payee,
    accountId: tenant.ids.account,
  });

const auth = (o: ServedOperation) => (o.caller === 'none' || o.caller === 'console' ? {} : { token: tokens[o.caller] });
const withBody = distinctOperations.filter((o) => o.bodyPointer);

describe('request bodies are capped at 1 MiB', () => {
  it.each(withBody.map((o) => [`${o.group} ${o.operationId}`, o] as const))('%s answers 413 to a body over the cap', async (_, o) => {
    const r = await service.send(o.method.toUpperCase(), fill(o.url), {
      ...auth(o),
      raw: JSON.stringify({ filler: 'x'.repeat(mebibyte + 10) }),
    });
    expect(r.status).toBe(413);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ type: problemType('payload-too-large'), status: 413 });
  });

  it('takes a body just under the cap to validation (400, not 413)', async () => {
    const r = await service.send('POST', '/v1/payees', {
      token: tokens.merchant,
      raw: JSON.stringify({ name: 'x'.repeat(mebibyte - 100) }),
    });
    expect(r.status).toBe(400);
  });

  it('caps a form-encoded token request at 16 KiB', async () => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'mch_cl_0000000000000000',
      client_secret: 'x'.repeat(20_000),
    }).toString();
    const r = await service.send('POST', '/oauth/token', {
      raw: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(413);
    expect(r.body.type).toBe(problemType('payload-too-large'));
  });

  it('refuses absurdly deep nesting without harm (4xx), and keeps answering', async () => {
    const depth = 100_000;
    const r = await service.send('POST', '/v1/payees/list', {
      token: tokens.merchant,
      raw: `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect((await service.send('GET', '/health')).status).toBe(200);
  });
});

/** Every paging parameter of every list or search: in the query or in the body. */
// The console's lists are bounded the same way behind its session (test/server/console-*.test.ts).
const paging = distinctOperations
  .filter((o) => o.caller !== 'console')
  .flatMap((o) => {
    const inQuery = o.parameters
      .filter((p) => p.in === 'query' && /^page_?(size|number)$/i.test(p.name))
      .map((p) => ({ o, name: p.name, where: 'query' as const, schema: p.schema }));
    const inBody = Object.entries<Json>(o.bodySchema?.properties ?? {})
      .filter(([name]) => /^page_?(size|number)$/i.test(name))
      .map(([name, schema]) => ({ o, name, where: 'body' as const, schema: schema as Json }));
    return [...inQuery, ...inBody];
  });

describe('every list and search bounds its page', () => {
  it('finds the paged operations of every group that lists', () => {
    const listed = new Set(paging.filter((p) => /size/i.test(p.name)).map((p) => `${p.o.group} ${p.o.operationId}`));
    expect([...listed].sort()).toEqual(
      [
        'merchant listPayees',
        'merchant listPayouts',
        'merchant listEvents',
        'merchant listWebhookDeliveries',
        'platform listPayees',
        'platform listPayouts',
        'platform listEvents',
        'partner listRecipients',
        'partner searchPartnerTransactions',
        'partner listPartnerEvents',
        'partner listPartnerWebhookDeliveries',
        'banking listBusinesses',
        'banking listBusinessAccounts',
        'banking listBankingCounterparties',
        'banking listAccountTransfers',
        'banking listAccountLedgerEntries',
        'counterparty listCounterparties',
        'counterparty searchTransactions',
      ].sort(),
    );
  });

  it.each(paging.map((p) => [`${p.o.group} ${p.o.operationId} ${p.name}`, p] as const))(
    '%s: one over the maximum is 400 naming it; the maximum is 200',
    async (_, p) => {
      const max = p.schema.maximum as number;
      expect(max, 'every paging parameter has a maximum').toBeGreaterThan(0);
      expect(max).toBeLessThanOrEqual(10_000);
      const ask = (value: number) =>
        service.send(p.o.method.toUpperCase(), ownPath(p.o), {
          ...auth(p.o),
          ...(p.where === 'query' ? { query: { [p.name]: value } } : { body: { [p.name]: value } }),
        });
      const over = await ask(max + 1);
      expect(over.status, over.text).toBe(400);
      expect(over.body.errors).toContainEqual(
        expect.objectContaining(p.where === 'query' ? { parameter: p.name } : { pointer: `#/${p.name}` }),
      );
      expect((await ask(max)).status).toBe(200);
    },
  );
});

describe('every string and array of every request body is bounded', () => {
  /** A valid documented example, and for each of its top-level strings and arrays a copy one over the bound. */
  const oversized = withBody
    .filter((o) => o.caller !== 'console')
    .flatMap((o) => {
      const validate = validatorAt(o.group, o.bodyPointer!);
      const example = Object.values(requestExamples(o)).find((e) => validate(e)) as Json | undefined;
      if (!example) return [];
      return Object.entries<Json>(o.bodySchema?.properties ?? {}).flatMap(([name, schema]) => {
        if (typeof schema.maxLength === 'number') return [{ o, name, body: { ...example, [name]: 'A'.repeat(schema.maxLength + 1) } }];
        if (typeof schema.maxItems === 'number' && Array.isArray(example[name]))
          return [{ o, name, body: { ...example, [name]: Array(schema.maxItems + 1).fill(example[name][0]) } }];
        return [];
      });
    });

  it('has bounded fields to try in every group', () => {
    expect(new Set(oversized.map((c) => c.o.group))).toEqual(new Set(['merchant', 'platform', 'partner', 'banking', 'counterparty']));
    expect(oversized.length).toBeGreaterThan(60);
  });

  it('refuses each one over its bound with 400 naming the field', async () => {
    for (const c of oversized) {
      const r = await service.send(c.o.method.toUpperCase(), fill(c.o.url), { ...auth(c.o), body: c.body });
      expect(r.status, `${c.o.group} ${c.o.operationId} ${c.name}: ${r.text}`).toBe(400);
      expect(r.body.errors, `${c.o.group} ${c.o.operationId} ${c.name}`).toContainEqual(
        expect.objectContaining({ pointer: `#/${c.name}` }),
      );
    }
  });

  it('bounds every path and query string parameter', async () => {
    const strings = distinctOperations
      .filter((o) => o.caller !== 'console')
      .flatMap((o) => o.parameters.filter((p) => p.in !== 'header' && p.schema.type === 'string').map((p) => ({ o, p })));
    expect(strings.length).toBeGreaterThanOrEqual(5);
    for (const { o, p } of strings) {
      expect(
        typeof p.schema.maxLength === 'number' || Array.isArray(p.schema.enum) || typeof p.schema.pattern === 'string',
        `${o.operationId} ${p.name}`,
      ).toBe(true);
      const long = 'a'.repeat(Math.min(((p.schema.maxLength as number | undefined) ?? 200) + 1, 5000));
      const r = await service.send(o.method.toUpperCase(), p.in === 'path' ? fill(o.url, { [p.name]: long }) : fill(o.url), {
        ...auth(o),
        ...(p.in === 'query' ? { query: { [p.name]: long } } : {}),
        ...(o.bodySchema ? { body: {} } : {}),
      });
      expect(r.status, `${o.group} ${o.operationId} ${p.name}: ${r.text}`).toBe(400);
    }
  });
});

describe('per-merchant collections are capped', () => {
  it('holds at most 20 webhook registrations and 20 accounts per payee (422 limit-reached)', async () => {
    const m = await service.services.credentials.createMerchant('Collector');
    const token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
    for (let i = 0; i < 20; i++)
      expect((await service.send('POST', '/v1/webhooks', { token, body: { url: `http://127.0.0.1:9/${i}` } })).status).toBe(201);
    const webhook = await service.send('POST', '/v1/webhooks', { token, body: { url: 'http://127.0.0.1:9/21' } });
    expect(webhook.status).toBe(422);
    expect(webhook.body.type).toBe(problemType('limit-reached'));
    const payee = await service.send('POST', '/v1/payees', {
      token,
      body: {
        payeeType: 'individual',
        name: 'Many Accounts',
        EmailAddress: 'm@example.com',
        address: { addressLine: '1 Main St', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' },
      },
    });
    const account = {
      type: 'BANK_ACCOUNT',
      accountHolderName: 'Many Accounts',
      bankName: 'First Hudson Bank',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      accountType: 'CHECKINGS',
      Currency: 'USD',
    };
    for (let i = 0; i < 20; i++)
      expect((await service.send('POST', `/v1/payees/${payee.body.id}/accounts`, { token, body: account })).status).toBe(201);
    const over = await service.send('POST', `/v1/payees/${payee.body.id}/accounts`, { token, body: account });
    expect(over.status).toBe(422);
    expect(over.body.type).toBe(problemType('limit-reached'));
  });
});

describe('bursts are limited per caller (429 with Retry-After)', () => {
  const limit = 8;
  let limited: RunningService;
  beforeAll(async () => {
    limited = await startService(':memory:', { rateLimitPerMinute: limit });
  });
  afterAll(() => limited.stop());

  /** One cheap operation per group, and the caller kind it needs. */
  const probes = [
    { group: 'merchant', method: 'GET', path: '/v1/webhooks', caller: 'merchant' },
    { group: 'platform', method: 'GET', path: '/payouts/v1/payouts', caller: 'merchant' },
    { group: 'partner', method: 'GET', path: '/finance/v1/partner/list', caller: 'partner' },
    { group: 'banking', method: 'GET', path: '/finance/api/v1/business/1', caller: 'merchant' },
    { group: 'counterparty', method: 'POST', path: '/finance/v1/search_transactions', caller: 'partner', body: {} },
  ] as const;

  it.each(probes)('$group: the budget, then 429 with Retry-After and RateLimit headers; another caller is unaffected', async (p) => {
    const caller = async () => {
      if (p.caller === 'merchant') {
        const m = await limited.services.credentials.createMerchant(`Burst ${p.group}`);
        return (await limited.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      }
      const partner = await limited.services.credentials.createPartner(`Burst ${p.group}`);
      return (await limited.services.tokens.issue({ kind: 'partner', partnerId: partner.partnerId })).access_token;
    };
    const token = await caller();
    const answers = [];
    for (let i = 0; i < limit + 2; i++)
      answers.push(await send(limited.baseUrl, p.method, p.path, { token, ...('body' in p ? { body: p.body } : {}) }));
    expect(answers.slice(0, limit).every((a) => a.status !== 429)).toBe(true);
    expect(answers.slice(0, limit).map((a) => Number(a.headers.get('ratelimit-remaining')))).toEqual(
      Array.from({ length: limit }, (_, i) => limit - 1 - i),
    );
    for (const refused of answers.slice(limit)) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ type: problemType('rate-limited'), status: 429 });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get('ratelimit-limit')).toBe(String(limit));
    }
    expect(
      (await send(limited.baseUrl, p.method, p.path, { token: await caller(), ...('body' in p ? { body: p.body } : {}) })).status,
    ).not.toBe(429);
  });

  it('limits unauthenticated requests (token operations) per address', async () => {
    const statuses = [];
    for (let i = 0; i < limit + 1; i++)
      statuses.push(
        (await send(limited.baseUrl, 'POST', '/finance/v1/generate-token', { body: { clientId: 'prt_cl_0000000000000000' } })).status,
      );
    expect(statuses.at(-1)).toBe(429);
  });
});
