// What every operation refuses before its handler runs, table-driven over the contract: lone UTF-16
// surrogates in any body string (nothing written, on both stores), values of every format the requests use
// that only look right, numbers not written in decimal, missing and mistyped bodies. And how the HTTP
// surface answers what no operation covers: HEAD, reserved characters in query values and oversized headers
// (another method on a known path: test/security/api5-function-authorisation.test.ts; a port in use:
// test/server/startup.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { bundles, resolve, type Json } from '../support/contract.js';
import { distinctOperations, requestExamples, type ServedOperation } from '../support/operations.js';
import { fill } from '../support/requests.js';
import { bankAccount, individual, newMerchant } from '../support/merchants.js';
import { rowCounts } from '../support/row-counts.js';
import type { RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

interface Callers {
  merchant: string;
  partner: string;
}

async function callers(service: RunningService): Promise<Callers> {
  const m = await service.services.credentials.createMerchant('Acme');
  const p = await service.services.credentials.createPartner('Partner');
  await service.services.credentials.link(p.partnerId, m.merchantId);
  return {
    merchant: (await service.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token,
    partner: (await service.services.tokens.issue({ kind: 'partner', partnerId: p.partnerId })).access_token,
  };
}

/** The operation's path with each parameter at its schema's example (valid, though likely nobody's), or `overrides`. */
const pathOf = (o: ServedOperation, overrides: Record<string, string> = {}) =>
  fill(o.url, {
    ...Object.fromEntries(o.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema.example ?? 1])),
    ...overrides,
  });
const tokenFor = (o: ServedOperation, c: Callers) => (o.caller === 'none' || o.caller === 'console' ? undefined : c[o.caller]);
const label = (o: ServedOperation) => `${o.method.toUpperCase()} ${o.url}`;
// The bearer groups' operations. The console's own (a session cookie and the console's Origin first) are refused
// before their bodies are read without them: test/server/console-*.test.ts holds their bodies to the contract.
const publicOperations = distinctOperations.filter((o) => o.caller !== 'console');
const withBody = publicOperations.filter((o) => o.bodySchema && Object.keys(requestExamples(o)).length > 0);

/** Every string leaf of a JSON value, by JSON Pointer. */
function stringLeaves(value: unknown, pointer = '#'): string[] {
  if (typeof value === 'string') return [pointer];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, `${pointer}/${i}`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, `${pointer}/${k}`));
  return [];
}

function setAt(root: unknown, pointer: string, value: unknown): void {
  const keys = pointer.split('/').slice(1);
  const last = keys.pop()!;
  const parent = keys.reduce<any>((node, key) => node[key], root);
  parent[last] = value;
}
const getAt = (root: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<any>((node, key) => node[key], root);

/** The string leaves of an example whose schema names a `format`, with that format. */
function formattedLeaves(doc: Json, schema: unknown, value: unknown, pointer = '#', out = new Map<string, string>()): Map<string, string> {
  const s = resolve(doc, schema);
  if (!s || typeof s !== 'object') return out;
  if (typeof value === 'string' && typeof s.format === 'string') out.set(pointer, s.format);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const sub of s[key] ?? []) formattedLeaves(doc, sub, value, pointer, out);
  for (const key of ['then', 'else'] as const) if (s[key]) formattedLeaves(doc, s[key], value, pointer, out);
  if (Array.isArray(value)) {
    if (s.items) for (const [i, v] of value.entries()) formattedLeaves(doc, s.items, v, `${pointer}/${i}`, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (s.properties?.[k]) formattedLeaves(doc, s.properties[k], v, `${pointer}/${k}`, out);
  }
  return out;
}

/** Values that have the shape of their format and break it (what the validator's "fast" mode let through). */
const invalidByFormat: Record<string, string[]> = {
  date: ['2023-13-01', '2023-02-30'],
  'date-time': ['2026-11-02T25:00:00Z', '2026-11-02T10:00:00+25:00', '2026-02-30T10:00:00Z'],
  email: ['a..b@example.com', '.a@example.com', 'a@b'],
  uri: ['https://hooks.example.com/%zz', 'https://hooks.example.com/a\u0001b'],
  'uri-reference': ['/a b%zz'],
  uuid: ['3f1b8a52-6f0e-4d59-9d2b-1c7a0e5e9f1g'],
};
const numericFormats = new Set(['int32', 'int64', 'float', 'double']);

describe.each(stores)('lone surrogates on $name', (kind) => {
  const service = useService(kind);
  let c: Callers;
  beforeAll(async () => {
    c = await callers(service);
  });

  it("are refused in every string of every operation's body, naming the field, and nothing is written", async () => {
    const before = await rowCounts(service.services.store);
    const misses: string[] = [];
    for (const o of withBody) {
      const example = Object.values(requestExamples(o))[0];
      for (const pointer of stringLeaves(example)) {
        const body = structuredClone(example);
        setAt(body, pointer, `${String(getAt(body, pointer)).slice(0, 3)}\ud83d`);
        const r = await service.send(o.method.toUpperCase(), pathOf(o), { token: tokenFor(o, c), body });
        const named = (r.body?.errors ?? []).some((e: { pointer?: string }) => e.pointer === pointer);
        if (r.status !== 400 || !named) misses.push(`${label(o)} ${pointer}: ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    expect(misses).toEqual([]);
    expect(await rowCounts(service.services.store)).toEqual(before);
  });

  it('in a payout description: refused, so a plain retry cannot pay twice', async () => {
    const m = await newMerchant(service);
    const payee = (await m.a.POST('/v1/payees', { body: individual })).data!;
    const account = (await m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() })).data!;
    const raw = `{"PayeeId":${payee.id},"PayeeAccountId":"${account.PayeeAccountId}","Amount":10,"Currency":"USD","Description":"Invoice \\ud83d"}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
      const r = await service.send('POST', '/v1/payouts', { token, raw });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ pointer: '#/Description', detail: expect.stringContaining('surrogate') }]);
    }
    expect((await m.a.GET('/v1/payouts', {})).data!.data).toEqual([]);
  });
});

describe('what every operation refuses before its handler runs', () => {
  const service = useService(':memory:');
  let c: Callers;
  beforeAll(async () => {
    c = await callers(service);
  });

  it('has invalid values for every format the requests use', () => {
    const used = new Set<string>();
    for (const o of publicOperations) {
      for (const example of Object.values(requestExamples(o)))
        for (const f of formattedLeaves(bundles[o.group], o.bodySchema, example).values()) used.add(f);
      for (const p of o.parameters)
        if (typeof p.schema.format === 'string' && !numericFormats.has(p.schema.format)) used.add(p.schema.format);
    }
    expect([...used].filter((f) => !invalidByFormat[f])).toEqual([]);
    expect(used.size).toBeGreaterThan(3);
  });

  it('refuses values that only look like their format, in bodies, queries and paths, naming the field', async () => {
    const misses: string[] = [];
    let cases = 0;
    for (const o of publicOperations) {
      for (const example of Object.values(requestExamples(o))) {
        for (const [pointer, format] of formattedLeaves(bundles[o.group], o.bodySchema, example)) {
          for (const bad of invalidByFormat[format] ?? []) {
            const body = structuredClone(example);
            setAt(body, pointer, bad);
            const r = await service.send(o.method.toUpperCase(), pathOf(o), { token: tokenFor(o, c), body });
            cases++;
            if (r.status !== 400 || !(r.body?.errors ?? []).some((e: { pointer?: string }) => e.pointer === pointer))
              misses.push(`${label(o)} ${pointer}=${bad}: ${r.status}`);
          }
        }
      }
      for (const p of o.parameters.filter((p) => p.in !== 'header' && invalidByFormat[p.schema.format])) {
        for (const bad of invalidByFormat[p.schema.format]!) {
          const path = p.in === 'path' ? pathOf(o, { [p.name]: bad }) : pathOf(o);
          const r = await service.send(o.method.toUpperCase(), path, {
            token: tokenFor(o, c),
            query: p.in === 'query' ? { [p.name]: bad } : {},
            body: o.bodySchema ? Object.values(requestExamples(o))[0] : undefined,
          });
          cases++;
          if (r.status !== 400 || !(r.body?.errors ?? []).some((e: { parameter?: string }) => e.parameter === p.name))
            misses.push(`${label(o)} ${p.name}=${bad}: ${r.status}`);
        }
      }
    }
    expect(misses).toEqual([]);
    expect(cases).toBeGreaterThan(50);
  });

  it('refuses integer and number parameters not written in decimal digits (1e400, 0x10, 1e3, " 7")', async () => {
    const misses: string[] = [];
    const numeric = publicOperations.flatMap((o) =>
      o.parameters.filter((p) => p.in !== 'header' && ['integer', 'number'].includes(p.schema.type)).map((p) => [o, p] as const),
    );
    expect(numeric.length).toBeGreaterThan(10);
    for (const [o, p] of numeric) {
      for (const bad of ['1e400', '-1e400', '0x10', '1e3', ' 7', 'Infinity']) {
        const path = p.in === 'path' ? pathOf(o, { [p.name]: bad }) : pathOf(o);
        const r = await service.send(o.method.toUpperCase(), path, {
          token: tokenFor(o, c),
          query: p.in === 'query' ? { [p.name]: bad } : {},
          body: o.bodySchema ? Object.values(requestExamples(o))[0] : undefined,
        });
        if (r.status !== 400 || !(r.body?.errors ?? []).some((e: { parameter?: string }) => e.parameter === p.name))
          misses.push(`${label(o)} ${p.name}=${bad}: ${r.status} ${r.text.slice(0, 160)}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('refuses a missing or zero-length body where one is required, and takes it as "no filters" where it is optional', async () => {
    for (const o of publicOperations.filter((o) => o.op.requestBody)) {
      const required = resolve(bundles[o.group], o.op.requestBody).required === true;
      for (const init of [{}, { headers: { 'content-type': 'application/json' }, raw: '' }]) {
        const r = await service.send(o.method.toUpperCase(), pathOf(o), { token: tokenFor(o, c), ...init });
        if (required) {
          expect(r.status, label(o)).toBe(400);
          expect(r.body.errors, label(o)).toEqual([{ pointer: '#', detail: 'The request body is required.' }]);
        } else {
          expect(r.status, `${label(o)} ${r.text}`).toBe(200);
        }
      }
    }
  });

  it('answers a body of another media type with 415, which every operation taking a body documents', async () => {
    for (const o of publicOperations.filter((o) => o.op.requestBody)) {
      expect(o.statuses, label(o)).toContain(415);
      const r = await service.send(o.method.toUpperCase(), pathOf(o), {
        token: tokenFor(o, c),
        raw: 'x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(r.status, label(o)).toBe(415);
      expect(r.body).toMatchObject({
        type: 'https://payouts.example/problems/unsupported-media-type',
        detail: expect.stringMatching(/^text\/plain is not accepted here; send the body as application\/json/),
      });
    }
  });

  it('answers HEAD as the GET it mirrors, without a body', async () => {
    for (const o of publicOperations.filter((o) => o.method === 'get')) {
      const token = tokenFor(o, c);
      const get = await service.send('GET', pathOf(o), { token });
      const head = await service.send('HEAD', pathOf(o), { token });
      expect(head.status, label(o)).toBe(get.status);
      expect(head.headers.get('content-type'), label(o)).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length'), label(o)).toBe(get.headers.get('content-length'));
      expect(head.text, label(o)).toBe('');
    }
    expect((await service.send('HEAD', '/v1/webhooks')).status).toBe(401);
  });

  it('takes query values as URLSearchParams and common clients send them: `+` for a space, raw reserved characters', async () => {
    for (const query of ['SearchText=a+b', 'SearchText=*', 'SearchText=a%20b', 'SearchText=x,y:z@w!']) {
      const r = await fetch(`${service.baseUrl}/finance/v1/payees?${query}`, { headers: { authorization: `Bearer ${c.partner}` } });
      expect(r.status, query).toBe(200);
    }
    const sent = new URLSearchParams({ SearchText: 'Maria G*' }).toString();
    expect(sent).toBe('SearchText=Maria+G*');
    expect(
      (await fetch(`${service.baseUrl}/finance/v1/payees?${sent}`, { headers: { authorization: `Bearer ${c.partner}` } })).status,
    ).toBe(200);
  });

  it('names each field at fault once: a bank account with only its type', async () => {
    const r = await service.send('POST', '/v1/payees/1/accounts', { token: c.merchant, body: { type: 'BANK_ACCOUNT' } });
    expect(r.status).toBe(400);
    const at = r.body.errors.map((e: { pointer: string }) => e.pointer);
    expect(at).toEqual([...new Set(at)]);
    expect(at).toContain('#/accountHolderName');
    expect(r.body.detail).toBe(`The request has ${at.length} invalid fields.`);
  });

  it('names the currency, not the amount, when the currency is not one the service pays in', async () => {
    const m = await newMerchant(service);
    const payee = (await m.a.POST('/v1/payees', { body: individual })).data!;
    const account = (await m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() })).data!;
    const r = await m.a.POST('/v1/payouts', {
      body: { PayeeId: payee.id, PayeeAccountId: account.PayeeAccountId, Amount: 10, Currency: 'XYZ' },
    });
    expect(r.response.status).toBe(422);
    expect((r.error as { errors: unknown }).errors).toEqual([{ pointer: '#/Currency', detail: expect.any(String) }]);
  });

  it("answers request headers over 16 KiB with a 431 problem, not Node's bare status line", async () => {
    const r = await fetch(`${service.baseUrl}/v1/webhooks`, { headers: { 'x-padding': 'a'.repeat(20_000) } });
    expect(r.status).toBe(431);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(await r.json()).toMatchObject({
      type: 'https://payouts.example/problems/headers-too-large',
      status: 431,
      requestId: expect.stringMatching(/^req_/),
    });
  });
});
