// One idempotency mechanism, one behaviour matrix (server/store/idempotency.ts), run through real HTTP with the
// generated clients on each store, over every operation that takes an Idempotency-Key (read from the bundles,
// so a new one fails here until it has a row) and over partnerPaymentUniqueId (groups C and E):
//   new key → carried out; same key and request → the stored answer, replayed; same key, other request → 409;
//   10 concurrent copies → one carried out, every answer the same; no key → carried out every time; another
//   caller's same key → its own.
// Then the edges: a key's lifetime, a refused request keeps nothing, payments made before migration 0006.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeyLifetimeMs } from '../../server/store/idempotency.js';
import { migration as partnerPaymentKeys } from '../../server/store/migrations/0006_partner_payment_keys.js';
import { declaredProperties, distinctOperations, requestExamples } from '../support/operations.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';

const problems = 'https://payouts.example/problems/';
const copies = 10;
type Body = Record<string, any>;

/** A documented request example of the operation at `method url` (the first, unless named): valid by construction. */
function example(method: string, url: string, name?: string): Body {
  const op = distinctOperations.find((o) => o.method === method && o.url === url);
  if (!op) throw new Error(`no operation ${method} ${url}`);
  const examples = requestExamples(op);
  return (name ? examples[name] : Object.values(examples)[0]) as Body;
}

interface Answer {
  status: number;
  body: any;
  replayed: string | null;
}
async function answer(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Answer> {
  const { data, error, response } = await call;
  return { status: response.status, body: data ?? error, replayed: response.headers.get('idempotent-replayed') };
}
const header = (key: string | undefined) => (key === undefined ? {} : { 'Idempotency-Key': key });

interface Case {
  name: string;
  /** The operation's URL on the service, as distinctOperations has it (every idempotent create is a POST). */
  url: string;
  /** Where the key goes: the Idempotency-Key header, or the body's partnerPaymentUniqueId. */
  keyIn: 'header' | 'partnerPaymentUniqueId';
  created: number;
  /** A valid request for tenant x: the documented example with its ids pointed at x's resources; n makes it unique. */
  body(x: Tenant, n: number): Body;
  /** Another request for the same key. */
  other(body: Body, x: Tenant): Body;
  send(x: Tenant, body: Body, key?: string): Promise<Answer>;
  id(body: any): unknown;
  /** What the operation creates: rows of this table for the merchant (of this transfer type). */
  table: string;
  type?: string;
  /** False where the operation's own rule refuses the same body twice (a business's tax id). */
  repeatable: boolean;
}

const payout = (group: 'a' | 'b', url: string): Case => ({
  name: `createPayout (${url})`,
  url,
  keyIn: 'header',
  created: 202,
  body: (x) => ({ ...example('post', url), PayeeId: x.ids.payee }),
  other: (b) => ({ ...b, Amount: b.Amount + 1 }),
  send: (x, body, key) =>
    group === 'a'
      ? answer(x.a.POST('/v1/payouts', { params: { header: header(key) }, body: body as any }))
      : answer(x.b.POST('/v1/payouts', { params: { header: header(key) }, body: body as any })),
  id: (b) => b.PayoutUniqueReference,
  table: 'payouts',
  repeatable: true,
});

/** Transfers keep the example's fields but move 12.50, so the tenant's balance covers every debit. */
const transfer = (operation: string, path: string, type: string, parties: (x: Tenant) => Body): Case => ({
  name: `${operation} (${path})`,
  url: `/finance/api/v1/transaction/${path}`,
  keyIn: 'header',
  created: 201,
  body: (x) => ({ ...example('post', `/finance/api/v1/transaction/${path}`), ...parties(x), amount: 12.5 }),
  other: (b) => ({ ...b, amount: 13.5 }),
  send: (x, body, key) => {
    const url = `/finance/api/v1/transaction/${path}` as '/finance/api/v1/transaction/ach/pull';
    return answer(x.d.POST(url, { params: { header: header(key) }, body: body as any }));
  },
  id: (b) => b.id,
  table: 'banking_transfers',
  type,
  repeatable: true,
});

const payment = (group: 'c' | 'e', payee: (x: Tenant) => number): Case => ({
  name: `createPaymentRequest, partnerPaymentUniqueId (group ${group.toUpperCase()})`,
  url: '/finance/v1/payment_request',
  keyIn: 'partnerPaymentUniqueId',
  created: 201,
  body: (x) => {
    const { partnerPaymentUniqueId: _, ...rest } = example('post', '/finance/v1/payment_request');
    return { ...rest, payeeId: payee(x), merchantId: x.merchantId, partnerId: x.partnerId };
  },
  other: (b) => ({ ...b, amount: b.amount + 1 }),
  send: (x, body, key) => {
    const sent = key === undefined ? body : { ...body, partnerPaymentUniqueId: key };
    return group === 'c'
      ? answer(x.c.POST('/finance/v1/payment_request', { body: sent as any }))
      : answer(x.e.POST('/finance/v1/payment_request', { body: sent as any }));
  },
  id: (b) => b.paymentId,
  table: 'payments',
  repeatable: true,
});

const cases: Case[] = [
  payout('a', '/v1/payouts'),
  payout('b', '/payouts/v1/payouts'),
  {
    name: 'createBusiness',
    url: '/finance/api/v1/business',
    keyIn: 'header',
    created: 201,
    body: (_, n) => ({ ...example('post', '/finance/api/v1/business'), taxId: `${10 + (n % 80)}-${String(7_000_000 + n).slice(-7)}` }),
    other: (b) => ({ ...b, legalName: 'Another Name LLC' }),
    send: (x, body, key) => answer(x.d.POST('/finance/api/v1/business', { params: { header: header(key) }, body: body as any })),
    id: (b) => b.id,
    table: 'banking_businesses',
    repeatable: false,
  },
  {
    name: 'createIdentityVerification',
    url: '/finance/api/v1/identity-verification',
    keyIn: 'header',
    created: 201,
    body: (x) => ({ ...example('post', '/finance/api/v1/identity-verification'), businessId: x.ids.business }),
    other: (b) => ({ ...example('post', '/finance/api/v1/identity-verification', 'usOwner'), businessId: b.businessId }),
    send: (x, body, key) =>
      answer(x.d.POST('/finance/api/v1/identity-verification', { params: { header: header(key) }, body: body as any })),
    id: (b) => b.id,
    table: 'banking_verifications',
    repeatable: true,
  },
  {
    name: 'createBankingCounterparty',
    url: '/finance/api/v1/counterparty',
    keyIn: 'header',
    created: 201,
    body: (x) => ({ ...example('post', '/finance/api/v1/counterparty'), businessId: x.ids.business }),
    other: (b) => ({ ...b, name: 'Another Supplier Inc.' }),
    send: (x, body, key) => answer(x.d.POST('/finance/api/v1/counterparty', { params: { header: header(key) }, body: body as any })),
    id: (b) => b.id,
    table: 'banking_counterparties',
    repeatable: true,
  },
  {
    name: 'createAccount',
    url: '/finance/api/v1/account/{businessId}',
    keyIn: 'header',
    created: 201,
    // The path's businessId is part of the request: carried in the body here, sent in the path.
    body: (x) => ({ ...example('post', '/finance/api/v1/account/{businessId}'), businessId: x.ids.business }),
    other: (b) => ({ ...b, accountName: 'Another account' }),
    send: (x, { businessId, ...body }, key) => {
      const params = { path: { businessId }, header: header(key) };
      return answer(x.d.POST('/finance/api/v1/account/{businessId}', { params, body: body as any }));
    },
    id: (b) => b.id,
    table: 'banking_accounts',
    repeatable: true,
  },
  transfer('createAchPull', 'ach/pull', 'ACH_PULL', (x) => ({ accountId: x.ids.account, counterpartyId: x.ids.achCounterparty })),
  transfer('createAchPush', 'ach/push', 'ACH_PUSH', (x) => ({ accountId: x.ids.account, counterpartyId: x.ids.achCounterparty })),
  transfer('createDomesticWire', 'wire/domestic', 'WIRE_DOMESTIC', (x) => ({
    accountId: x.ids.account,
    counterpartyId: x.ids.abaCounterparty,
  })),
  transfer('createInternationalWire', 'wire/international', 'WIRE_INTERNATIONAL', (x) => ({
    accountId: x.ids.account,
    counterpartyId: x.ids.bicCounterparty,
  })),
  transfer('createInternalTransfer', 'internal/transfer', 'INTERNAL', (x) => ({
    accountId: x.ids.account,
    toAccountId: x.ids.reserveAccount,
  })),
  payment('c', (x) => x.ids.achRecipient),
  payment('e', (x) => x.ids.counterparty),
];

describe('the idempotency table', () => {
  it('has a row for every operation that takes an Idempotency-Key, and for every one with partnerPaymentUniqueId', () => {
    const keyed = distinctOperations.filter((o) => o.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'));
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.every((o) => o.method === 'post')).toBe(true);
    const rows = (keyIn: Case['keyIn']) => [...new Set(cases.filter((c) => c.keyIn === keyIn).map((c) => c.url))].sort();
    expect(rows('header')).toEqual(keyed.map((o) => o.url).sort());
    const unique = distinctOperations.filter((o) => declaredProperties(o.group, o.bodySchema).has('partnerPaymentUniqueId'));
    expect(rows('partnerPaymentUniqueId')).toEqual(unique.map((o) => o.url).sort());
  });
});

describe.each(stores)('one idempotency mechanism on $name', (kind) => {
  let service: RunningService;
  let drop: () => Promise<void>;
  let t: Tenant;
  let other: Tenant;
  let made = 0;
  const next = () => ++made;
  const keyFor = (c: Case) => `${c.name.replace(/[^A-Za-z0-9]+/g, '-')}-${kind.name}-${next()}`;
  const db = () => service.services.store.db;

  /** How many of what the case creates the merchant of x holds. */
  async function rows(c: Case, x: Tenant): Promise<number> {
    const type = c.type ? sql` and type = ${c.type}` : sql``;
    const query = sql<{ n: number | string }>`select count(*) as n from ${sql.table(c.table)} where merchant_id = ${x.merchantId}${type}`;
    const counted = await query.execute(db());
    return Number(counted.rows[0]!.n);
  }

  beforeAll(async () => {
    const fresh = await kind.fresh();
    drop = fresh.drop;
    // Payments stay `created` (no sandbox steps in a test's time), so a replay's current state is the original.
    service = await startService(fresh.url, { sandboxStepMs: 3_600_000 }, { resolve: loopbackResolver });
    t = await newTenant(service, 'Keyholder');
    other = await newTenant(service, 'Neighbour');
  });
  afterAll(async () => {
    await service?.stop();
    await drop?.();
  });

  describe.each(cases)('$name', (c) => {
    // Partner payments answer a replay 200 with the payment (their contract), without the replay header.
    const replayStatus = c.keyIn === 'header' ? c.created : 200;
    const expectReplayOf = (first: Answer, again: Answer) => {
      expect(again.status, JSON.stringify(again.body)).toBe(replayStatus);
      expect(again.replayed).toBe(c.keyIn === 'header' ? 'true' : null);
      expect(again.body).toEqual(first.body);
    };
    const expectCreated = (a: Answer) => {
      expect(a.status, JSON.stringify(a.body)).toBe(c.created);
      expect(a.replayed).toBeNull();
    };

    it('new key: carried out; the same key and request again: the stored answer, replayed', async () => {
      const [key, body, before] = [keyFor(c), c.body(t, next()), await rows(c, t)];
      const first = await c.send(t, body, key);
      expectCreated(first);
      expectReplayOf(first, await c.send(t, body, key));
      expect(await rows(c, t)).toBe(before + 1);
    });

    it('same key, other request: 409 idempotency-conflict, nothing carried out; the key still replays its first', async () => {
      const [key, body] = [keyFor(c), c.body(t, next())];
      const first = await c.send(t, body, key);
      expectCreated(first);
      const before = await rows(c, t);
      const changed = await c.send(t, c.other(body, t), key);
      expect(changed.status, JSON.stringify(changed.body)).toBe(409);
      expect(changed.body.type).toBe(`${problems}idempotency-conflict`);
      const field = c.keyIn === 'header' ? { header: 'Idempotency-Key' } : { pointer: '#/partnerPaymentUniqueId' };
      expect(changed.body.errors).toContainEqual(expect.objectContaining(field));
      expect(await rows(c, t)).toBe(before);
      expectReplayOf(first, await c.send(t, body, key));
    });

    it(`${copies} concurrent copies with one key: one carried out, every answer the same`, async () => {
      const [key, body, before] = [keyFor(c), c.body(t, next()), await rows(c, t)];
      const answers = await Promise.all(Array.from({ length: copies }, () => c.send(t, body, key)));
      const originals = answers.filter((a) => a.status === c.created && a.replayed === null);
      expect(originals, JSON.stringify(answers.map((a) => [a.status, a.body]))).toHaveLength(1);
      for (const a of answers.filter((x) => x !== originals[0])) expectReplayOf(originals[0]!, a);
      expect(await rows(c, t)).toBe(before + 1);
    });

    it('no key: carried out every time', async () => {
      const before = await rows(c, t);
      const body = c.body(t, next());
      const first = await c.send(t, body);
      expectCreated(first);
      if (!c.repeatable) {
        // The same request again is carried out, not replayed: the operation's own rule refuses the duplicate.
        const duplicate = await c.send(t, body);
        expect(duplicate.status).toBe(409);
        expect(duplicate.body.type).toBe(`${problems}conflict`);
      }
      const second = await c.send(t, c.repeatable ? body : c.body(t, next()));
      expectCreated(second);
      expect(c.id(second.body)).not.toEqual(c.id(first.body));
      expect(await rows(c, t)).toBe(before + 2);
    });

    it("another caller's same key is its own", async () => {
      const key = keyFor(c);
      const mine = await c.send(t, c.body(t, next()), key);
      expectCreated(mine);
      const [before, theirs] = [await rows(c, other), await c.send(other, c.body(other, next()), key)];
      expectCreated(theirs);
      expect(c.id(theirs.body)).not.toEqual(c.id(mine.body));
      expect(await rows(c, other)).toBe(before + 1);
    });
  });

  it('an Idempotency-Key holds 24 hours, then starts afresh; a partnerPaymentUniqueId holds for ever', async () => {
    const [payouts, payments] = [cases[0]!, cases.find((c) => c.keyIn === 'partnerPaymentUniqueId')!];
    const age = (key: string, ms: number) =>
      db()
        .updateTable('idempotency_keys')
        .set({ created_at: Date.now() - ms })
        .where('key', '=', key)
        .execute();

    const [key, body] = [keyFor(payouts), payouts.body(t, next())];
    const first = await payouts.send(t, body, key);
    await age(key, idempotencyKeyLifetimeMs - 60_000);
    expect((await payouts.send(t, body, key)).replayed).toBe('true');
    await age(key, idempotencyKeyLifetimeMs + 1);
    const afresh = await payouts.send(t, body, key);
    expect(afresh.status).toBe(202);
    expect(afresh.replayed).toBeNull();
    expect(afresh.body.PayoutUniqueReference).not.toBe(first.body.PayoutUniqueReference);
    expect((await payouts.send(t, body, key)).replayed).toBe('true');

    const [unique, order] = [keyFor(payments), payments.body(t, next())];
    const paid = await payments.send(t, order, unique);
    await age(unique, 400 * idempotencyKeyLifetimeMs);
    const later = await payments.send(t, order, unique);
    expect(later.status).toBe(200);
    expect(later.body.paymentId).toBe(paid.body.paymentId);
  });

  it('a refused request keeps nothing: the same key carries out the retry', async () => {
    const push = cases.find((c) => c.url.endsWith('/ach/push'))!;
    const key = keyFor(push);
    const params = { path: { accountId: t.ids.account } };
    const balance = await answer(t.d.GET('/finance/api/v1/account/{accountId}/balance', { params }));
    const tooMuch = { ...push.body(t, next()), amount: Number(balance.body.available) + 1000 };
    for (let i = 0; i < 2; i += 1) {
      const refused = await push.send(t, tooMuch, key);
      expect(refused.status).toBe(422);
      expect(refused.body.type).toBe(`${problems}insufficient-funds`);
      expect(refused.replayed).toBeNull();
    }
    const retried = await push.send(t, { ...tooMuch, amount: 1 }, key);
    expect(retried.status).toBe(201);
    expect(retried.replayed).toBeNull();
  });

  it('a payment made before partnerPaymentUniqueId moved onto the mechanism still replays (migration 0006)', async () => {
    const payments = cases.find((c) => c.keyIn === 'partnerPaymentUniqueId')!;
    const [unique, order] = [keyFor(payments), payments.body(t, next())];
    const paid = await payments.send(t, order, unique);
    expect(paid.status).toBe(201);
    // As before the migration: the payment without its key's record.
    const scope = `partner:${t.partnerId}:partnerPaymentUniqueId`;
    await db().deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', unique).execute();
    const store = db() as unknown as Kysely<unknown>;
    await partnerPaymentKeys().up(store);
    await partnerPaymentKeys().up(store); // keys already there are left alone
    const again = await payments.send(t, order, unique);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paid.body);
    const changed = await payments.send(t, payments.other(order, t), unique);
    expect(changed.status).toBe(409);
    expect(changed.body.type).toBe(`${problems}idempotency-conflict`);
  });
});
