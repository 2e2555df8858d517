// One idempotency mechanism, one behaviour matrix (server/platform/store/idempotency.ts), run through real HTTP with the
// generated clients on each store, over every create of the contract: every POST that answers 201 or 202 must
// take an Idempotency-Key, and every operation that takes one has a row here (both read from the bundles, so a
// new create fails here until it has the parameter and a row). partnerPaymentUniqueId (groups C and E) has rows
// of its own. Each row runs the matrix:
//   new key → carried out; same key and request → the stored answer, replayed; same key, other request → 409,
//   nothing written; concurrent copies → one carried out, every answer the same; no key → carried out every
//   time; another caller's same key → its own; a refused request keeps nothing, so its key carries out a retry;
//   a replay after a change answers the resource as it is now (404 once removed), never the stored copy.
// Then the edges: a replayed webhook secret after rotation and deletion, a key's lifetime, both keys on one
// payment request, payments made before migration 0006.
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeyLifetimeMs } from '../../server/platform/store/idempotency.js';
import { migration as partnerPaymentKeys } from '../../server/platform/store/migrations/0006_partner_payment_keys.js';
import { bundles, resolve } from '../support/contract.js';
import { declaredProperties, distinctOperations, requestExamples } from '../support/operations.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const problems = 'https://payouts.example/problems/';
// Enough to race on one key; modest, so the fast tier stays fast on two cores.
const copies = 6;
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
/** A body as a later read shows it: balances are read `asOf` the moment of each read. */
const atAnyReadTime = (body: unknown): unknown =>
  Array.isArray(body)
    ? body.map(atAnyReadTime)
    : body && typeof body === 'object'
      ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k === 'asOf' ? expect.any(String) : atAnyReadTime(v)]))
      : body;
const header = (key: string | undefined) => (key === undefined ? {} : { 'Idempotency-Key': key });
/** An id no tenant's resource has. */
const unknownId = 900_000_000;

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
  /** What the operation creates: rows of this table for the merchant, with these column values. */
  table: string;
  /** Whose rows they are: the merchant's (`merchant_id`, by default) or the partner's (`partner_id`). */
  owner?: 'partner';
  where?: Record<string, string>;
  /** False where the operation's own rule refuses the same body twice (a business's tax id). */
  repeatable: boolean;
  /** A request the service refuses (4xx) for tenant x: an unknown resource, a broken rule or an invalid field. */
  refused(x: Tenant, n: number): Body;
  /** Changes what the first answer created (in the store) and checks that a replay shows the change. */
  change: Change;
}

type Change = (db: Kysely<any>, created: any) => Promise<(replay: Answer) => void>;
const changedValue = 'Changed since it was created';
/** Sets a column of the created row; a replay must show the new value where `shows` reads it. */
const setting =
  (
    table: string,
    column: string,
    shows: (body: any) => unknown,
    value: unknown = changedValue,
    idOf = (b: any) => b.id,
    idColumn = 'id',
  ): Change =>
  async (db, created) => {
    await db
      .updateTable(table)
      .set({ [column]: value })
      .where(idColumn, '=', idOf(created))
      .execute();
    return (replay) => {
      expect(shows(created)).not.toEqual(shows(replay.body));
      expect(shows(replay.body)).toEqual(typeof value === 'number' ? new Date(value).toISOString() : value);
    };
  };
/** Removes the created row: a replay answers 404 not-found. */
const removing =
  (table: string): Change =>
  async (db, created) => {
    await db
      .deleteFrom(table)
      .where('id', '=', created.id ?? created.PayeeAccountId)
      .execute();
    return (replay) => {
      expect(replay.status, JSON.stringify(replay.body)).toBe(404);
      expect(replay.body.type).toBe(`${problems}not-found`);
    };
  };
/** A partner's payee shows the details it was created with: the change is to those. */
const renamingPartnerPayee: Change = async (db, created) => {
  const row = await db.selectFrom('payees').select('details').where('id', '=', created.id).executeTakeFirstOrThrow();
  const details = { ...JSON.parse(row.details), name: changedValue };
  await db
    .updateTable('payees')
    .set({ details: JSON.stringify(details) })
    .where('id', '=', created.id)
    .execute();
  return (replay) => expect([created.name, replay.body.name]).toEqual([expect.not.stringMatching(changedValue), changedValue]);
};

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
  refused: (_, n) => ({ ...example('post', url), PayeeId: unknownId + n }),
  change: setting(
    'payouts',
    'description',
    (b) => b.Description,
    changedValue,
    (b) => b.PayoutUniqueReference,
    'reference',
  ),
});

/** A payee (groups A and B create the same payees through the one operation createPayee). */
const payee = (group: 'a' | 'b', url: string): Case => ({
  name: `createPayee (${url})`,
  url,
  keyIn: 'header',
  created: 201,
  body: (_, n) => ({ ...example('post', url, 'individual'), name: `Payee ${n}` }),
  other: (b) => ({ ...b, name: `${b.name} Jr.` }),
  send: (x, body, key) =>
    group === 'a'
      ? answer(x.a.POST('/v1/payees', { params: { header: header(key) }, body: body as any }))
      : answer(x.b.POST('/v1/payees/Create', { params: { header: header(key) }, body: body as any })),
  id: (b) => b.id,
  table: 'payees',
  where: { kind: 'payee' },
  repeatable: true,
  // A business needs a tax id (the contract's rule: 400).
  refused: (_, n) => ({ ...example('post', url, 'individual'), name: `Payee ${n}`, payeeType: 'business' }),
  change: setting('payees', 'name', (b) => b.name),
});

/** Transfers keep the example's fields but move 12.50, so the tenant's balance covers every debit. */
const transfer = (
  operation: string,
  path: string,
  type: string,
  parties: (x: Tenant) => Body,
  refusal: 'insufficient-funds' | 'unknown-account' = 'insufficient-funds',
): Case => ({
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
  where: { type },
  repeatable: true,
  // A debit beyond the balance is refused inside the key's transaction (422); a pull has no balance to exceed.
  refused: (x) => {
    const body = { ...example('post', `/finance/api/v1/transaction/${path}`), ...parties(x), amount: 12.5 };
    return refusal === 'insufficient-funds' ? { ...body, amount: 900_000_000 } : { ...body, accountId: unknownId };
  },
  change: setting('banking_transfers', 'description', (b) => b.description),
});

/** A payment request keyed by the Idempotency-Key header or by the body's partnerPaymentUniqueId. */
const payment = (group: 'c' | 'e', keyIn: Case['keyIn'], payee: (x: Tenant) => number): Case => {
  const order = (x: Tenant, payeeId: number) => {
    const { partnerPaymentUniqueId: _, ...rest } = example('post', '/finance/v1/payment_request');
    return { ...rest, payeeId, merchantId: x.merchantId, partnerId: x.partnerId };
  };
  return {
    name: `createPaymentRequest, ${keyIn === 'header' ? 'Idempotency-Key' : 'partnerPaymentUniqueId'} (group ${group.toUpperCase()})`,
    url: '/finance/v1/payment_request',
    keyIn,
    created: 201,
    body: (x) => order(x, payee(x)),
    other: (b) => ({ ...b, amount: b.amount + 1 }),
    send: (x, body, key) => {
      const sent = key === undefined || keyIn === 'header' ? body : { ...body, partnerPaymentUniqueId: key };
      const params = { header: header(keyIn === 'header' ? key : undefined) };
      return group === 'c'
        ? answer(x.c.POST('/finance/v1/payment_request', { params, body: sent as any }))
        : answer(x.e.POST('/finance/v1/payment_request', { params, body: sent as any }));
    },
    id: (b) => b.paymentId,
    table: 'payments',
    repeatable: true,
    refused: (x, n) => order(x, unknownId + n),
    change: setting(
      'payments',
      'description',
      (b) => b.description,
      changedValue,
      (b) => b.paymentId,
      'payment_id',
    ),
  };
};

/** A payee a partner creates for its linked merchant: a recipient (group C) or a counterparty (group E). */
const partnerPayee = (
  operation: string,
  url: '/finance/v1/recipient-ach' | '/finance/v1/recipient-wire' | '/finance/v1/payee',
  where: Record<string, string>,
): Case => ({
  name: `${operation} (${url})`,
  url,
  keyIn: 'header',
  created: 201,
  body: (x, n) => {
    const { businessId: _, ...rest } = example('post', url);
    return { ...rest, name: `Payee ${n}`, merchantId: x.merchantId };
  },
  other: (b) => ({ ...b, name: `${b.name} Jr.` }),
  send: (x, body, key) => {
    const params = { header: header(key) };
    return url === '/finance/v1/payee'
      ? answer(x.e.POST(url, { params, body: body as any }))
      : answer(x.c.POST(url as '/finance/v1/recipient-ach', { params, body: body as any }));
  },
  id: (b) => b.id,
  table: 'payees',
  where,
  repeatable: true,
  // A merchant not linked to the partner is not found.
  refused: (_, n) => ({ ...example('post', url), name: `Payee ${n}`, merchantId: unknownId + n }),
  change: renamingPartnerPayee,
});

const cases: Case[] = [
  payout('a', '/v1/payouts'),
  payout('b', '/payouts/v1/payouts'),
  payee('a', '/v1/payees'),
  payee('b', '/payouts/v1/payees/Create'),
  {
    name: 'createPayeeAccount',
    url: '/v1/payees/{id}/accounts',
    keyIn: 'header',
    created: 201,
    // The path's payee id is part of the request: carried in the body here, sent in the path.
    body: (x) => ({ ...example('post', '/v1/payees/{id}/accounts'), id: x.ids.payee }),
    other: (b) => ({ ...b, accountHolderName: 'Another Holder' }),
    send: (x, { id, ...body }, key) => {
      const params = { path: { id }, header: header(key) };
      return answer(x.a.POST('/v1/payees/{id}/accounts', { params, body: body as any }));
    },
    id: (b) => b.PayeeAccountId,
    table: 'payee_accounts',
    repeatable: true,
    refused: (_, n) => ({ ...example('post', '/v1/payees/{id}/accounts'), id: unknownId + n }),
    // The answer is the account's id alone: nothing in it changes, but the account can be gone.
    change: removing('payee_accounts'),
  },
  {
    name: 'createWebhook',
    url: '/v1/webhooks',
    keyIn: 'header',
    created: 201,
    body: (_, n) => ({ ...example('post', '/v1/webhooks', 'finalOnly'), url: `https://hooks.keyholder.example/${n}` }),
    other: (b) => ({ ...b, url: `${b.url}/other` }),
    send: (x, body, key) => answer(x.a.POST('/v1/webhooks', { params: { header: header(key) }, body: body as any })),
    id: (b) => b.id,
    table: 'webhooks',
    repeatable: true,
    refused: (_, n) => ({ url: `https://hooks.keyholder.example/${n}`, events: [] }),
    change: setting('webhooks', 'url', (b) => b.url, 'https://hooks.keyholder.example/moved'),
  },
  {
    name: 'createPartnerWebhook',
    url: '/finance/v1/webhooks',
    keyIn: 'header',
    created: 201,
    body: (_, n) => ({ ...example('post', '/finance/v1/webhooks', 'finalOnly'), url: `https://hooks.keyholder.example/partner/${n}` }),
    other: (b) => ({ ...b, url: `${b.url}/other` }),
    send: (x, body, key) => answer(x.c.POST('/finance/v1/webhooks', { params: { header: header(key) }, body: body as any })),
    id: (b) => b.id,
    table: 'webhooks',
    owner: 'partner',
    repeatable: true,
    refused: (_, n) => ({ url: `https://hooks.keyholder.example/partner/${n}`, events: [] }),
    change: setting('webhooks', 'url', (b) => b.url, 'https://hooks.keyholder.example/partner/moved'),
  },
  partnerPayee('createAchRecipient', '/finance/v1/recipient-ach', { kind: 'recipient', route: 'ACH' }),
  partnerPayee('createWireRecipient', '/finance/v1/recipient-wire', { kind: 'recipient', route: 'WIRE' }),
  partnerPayee('createCounterparty', '/finance/v1/payee', { kind: 'counterparty' }),
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
    refused: (_, n) => ({
      ...example('post', '/finance/api/v1/business'),
      taxId: `99-${String(8_000_000 + n).slice(-7)}`,
      formationDate: '2999-01-01',
    }),
    change: setting('banking_businesses', 'legal_name', (b) => b.legalName),
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
    refused: () => ({ ...example('post', '/finance/api/v1/identity-verification'), businessId: unknownId }),
    change: setting('banking_verifications', 'decided_at', (b) => b.decidedOn, Date.parse('2026-11-02T16:00:00.000Z')),
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
    refused: () => ({ ...example('post', '/finance/api/v1/counterparty'), businessId: unknownId }),
    change: setting('banking_counterparties', 'name', (b) => b.name),
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
    refused: () => ({ ...example('post', '/finance/api/v1/account/{businessId}'), businessId: unknownId }),
    change: setting('banking_accounts', 'account_name', (b) => b.accountName),
  },
  transfer(
    'createAchPull',
    'ach/pull',
    'ACH_PULL',
    (x) => ({ accountId: x.ids.account, counterpartyId: x.ids.achCounterparty }),
    'unknown-account',
  ),
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
  {
    name: 'simulateInboundTransfer (simulations/inbound-transfer)',
    url: '/finance/api/v1/simulations/inbound-transfer',
    keyIn: 'header',
    created: 201,
    body: (x) => ({ ...example('post', '/finance/api/v1/simulations/inbound-transfer'), accountId: x.ids.account, amount: 12.5 }),
    other: (b) => ({ ...b, amount: 13.5 }),
    send: (x, body, key) =>
      answer(x.d.POST('/finance/api/v1/simulations/inbound-transfer', { params: { header: header(key) }, body: body as any })),
    id: (b) => b.id,
    table: 'banking_transfers',
    where: { type: 'INBOUND_ACH' },
    repeatable: true,
    refused: () => ({ ...example('post', '/finance/api/v1/simulations/inbound-transfer'), accountId: unknownId }),
    change: setting('banking_transfers', 'description', (b) => b.description),
  },
  payment('c', 'header', (x) => x.ids.achRecipient),
  payment('e', 'header', (x) => x.ids.counterparty),
  payment('c', 'partnerPaymentUniqueId', (x) => x.ids.achRecipient),
  payment('e', 'partnerPaymentUniqueId', (x) => x.ids.counterparty),
];

describe('the idempotency table', () => {
  const takesKey = (o: (typeof distinctOperations)[number]) => o.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');

  // The console's creates (a session, a session's token, a credential whose secret is shown once) take none: a replay
  // would have to keep the cookie's token or the secret to answer it again (openapi/DECISIONS.md, "Console").
  const unkeyed = new Set(['signInToConsole', 'createConsoleAccessToken', 'createConsoleCredential']);

  it('every create (a POST answering 201 or 202) takes an Idempotency-Key and documents its replay header', () => {
    const creates = distinctOperations.filter(
      (o) => o.method === 'post' && o.statuses.some((s) => s === 201 || s === 202) && !unkeyed.has(o.operationId),
    );
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.filter((o) => !takesKey(o)).map((o) => `${o.operationId} ${o.url}`)).toEqual([]);
    const withoutHeader = distinctOperations
      .filter(takesKey)
      .flatMap((o) => o.statuses.filter((s) => s >= 200 && s < 300).map((s) => [o, s] as const))
      .filter(([o, s]) => !resolve(bundles[o.group], o.op.responses[String(s)]).headers?.['Idempotent-Replayed'])
      .map(([o, s]) => `${o.operationId} ${s}`);
    expect(withoutHeader).toEqual([]);
  });

  it('has a row for every operation that takes an Idempotency-Key, and for every one with partnerPaymentUniqueId', () => {
    const keyed = distinctOperations.filter(takesKey);
    expect(keyed.every((o) => o.method === 'post')).toBe(true);
    const rows = (keyIn: Case['keyIn']) => [...new Set(cases.filter((c) => c.keyIn === keyIn).map((c) => c.url))].sort();
    expect(rows('header')).toEqual(keyed.map((o) => o.url).sort());
    const unique = distinctOperations.filter((o) => declaredProperties(o.group, o.bodySchema).has('partnerPaymentUniqueId'));
    expect(rows('partnerPaymentUniqueId')).toEqual(unique.map((o) => o.url).sort());
  });
});

describe.each(stores)('one idempotency mechanism on $name', (kind) => {
  // Payments stay `created` (no sandbox steps in a test's time), so a replay's current state is the original.
  const service = useService(kind, { sandboxStepMs: 3_600_000 }, { resolve: loopbackResolver });
  let t: Tenant;
  let other: Tenant;
  let made = 0;
  const next = () => ++made;
  const keyFor = (c: Case) => `${c.name.replace(/[^A-Za-z0-9]+/g, '-')}-${kind.name}-${next()}`;
  const db = () => service.services.store.db;

  /** How many of what the case creates the merchant of x holds. */
  async function rows(c: Case, x: Tenant): Promise<number> {
    const where = Object.entries(c.where ?? {}).map(([column, value]) => sql` and ${sql.ref(column)} = ${value}`);
    const query = sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(c.table)} where ${c.owner === 'partner' ? sql`partner_id = ${x.partnerId}` : sql`merchant_id = ${x.merchantId}`}${sql.join(where, sql``)}`;
    const counted = await query.execute(db());
    return Number(counted.rows[0]!.n);
  }

  beforeAll(async () => {
    t = await newTenant(service, 'Keyholder');
    other = await newTenant(service, 'Neighbour');
  });

  describe.each(cases)('$name', (c) => {
    // A repeated partnerPaymentUniqueId answers 200 with the payment as it is now (its contract); every replay
    // carries the header.
    const replayStatus = c.keyIn === 'header' ? c.created : 200;
    const expectReplayOf = (first: Answer, again: Answer) => {
      expect(again.status, JSON.stringify(again.body)).toBe(replayStatus);
      expect(again.replayed).toBe('true');
      expect(again.body).toEqual(atAnyReadTime(first.body));
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

    it('a replay answers what was created as it is now: a change since shows, a removal answers 404', async () => {
      const [key, body] = [keyFor(c), c.body(t, next())];
      const first = await c.send(t, body, key);
      expectCreated(first);
      const shows = await c.change(db(), first.body);
      const again = await c.send(t, body, key);
      if (again.status < 400) expect([again.status, again.replayed]).toEqual([replayStatus, 'true']);
      shows(again);
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
        expect(duplicate.body.type).not.toBe(`${problems}idempotency-conflict`);
        expect(duplicate.replayed).toBeNull();
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

    it('a refused request keeps nothing: the same key refuses it again, then carries out a valid retry', async () => {
      const [key, before] = [keyFor(c), await rows(c, t)];
      const bad = c.refused(t, next());
      const refused = await c.send(t, bad, key);
      expect(refused.status, JSON.stringify(refused.body)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.status).not.toBe(409);
      expect(refused.replayed).toBeNull();
      const again = await c.send(t, bad, key);
      expect([again.status, again.body.type, again.replayed]).toEqual([refused.status, refused.body.type, null]);
      expect(await rows(c, t)).toBe(before);
      expectCreated(await c.send(t, c.body(t, next()), key));
      expect(await rows(c, t)).toBe(before + 1);
    });
  });

  it('a replayed webhook registration shows its secret only until it is rotated, and answers 404 once deleted', async () => {
    const hooks = cases.find((c) => c.name === 'createWebhook')!;
    const [key, body] = [keyFor(hooks), hooks.body(t, next())];
    const first = await hooks.send(t, body, key);
    expect(first.body.secret).toMatch(/^whsec_/);
    // The caller that lost the answer gets the secret again while it is the registration's.
    expect((await hooks.send(t, body, key)).body.secret).toBe(first.body.secret);
    const rotated = await t.a.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: first.body.id } } });
    expect(rotated.response.status).toBe(200);
    const afterRotation = await hooks.send(t, body, key);
    expect([afterRotation.status, afterRotation.replayed]).toEqual([201, 'true']);
    expect(afterRotation.body).toEqual({ ...first.body, secret: null });
    expect(JSON.stringify(afterRotation.body)).not.toContain(rotated.data!.secret);
    expect((await t.a.DELETE('/v1/webhooks', { params: { query: { id: first.body.id } } })).response.status).toBe(204);
    const afterDeletion = await hooks.send(t, body, key);
    expect([afterDeletion.status, afterDeletion.body.type]).toEqual([404, `${problems}not-found`]);
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

  it('a payment request with both keys: each must match what it was first used with; the unique id answers', async () => {
    const payments = cases.find((c) => c.keyIn === 'partnerPaymentUniqueId')!;
    const send = (body: Body, key?: string) =>
      answer(t.c.POST('/finance/v1/payment_request', { params: { header: header(key) }, body: body as any }));
    const [key, unique, before] = [keyFor(payments), keyFor(payments), await rows(payments, t)];
    const order: Body = { ...payments.body(t, next()), partnerPaymentUniqueId: unique };
    const first = await send(order, key);
    expect([first.status, first.replayed]).toEqual([201, null]);
    // Both again, the id with a fresh key, the id alone: the id's answer (200, the payment as it is now).
    for (const again of [await send(order, key), await send(order, keyFor(payments)), await send(order)]) {
      expect([again.status, again.replayed]).toEqual([200, 'true']);
      expect(again.body).toEqual(first.body);
    }
    // The key with another unique id, the id with another body: 409 naming the one that differs.
    const otherId = await send({ ...order, partnerPaymentUniqueId: keyFor(payments) }, key);
    expect([otherId.status, otherId.body.type]).toEqual([409, `${problems}idempotency-conflict`]);
    expect(otherId.body.errors).toContainEqual(expect.objectContaining({ header: 'Idempotency-Key' }));
    const otherBody = await send({ ...order, amount: order.amount + 1 }, keyFor(payments));
    expect([otherBody.status, otherBody.body.type]).toEqual([409, `${problems}idempotency-conflict`]);
    expect(otherBody.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/partnerPaymentUniqueId' }));
    expect(await rows(payments, t)).toBe(before + 1);
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
    expect([again.status, again.replayed]).toEqual([200, 'true']);
    expect(again.body).toEqual(paid.body);
    const changed = await payments.send(t, payments.other(order, t), unique);
    expect(changed.status).toBe(409);
    expect(changed.body.type).toBe(`${problems}idempotency-conflict`);
  });
});
