// Metadata (openapi/shared/schemas/Metadata.yaml, server/platform/store/metadata.ts) through real HTTP on each store: what a
// create (and an update, where the object has one) sends is shown on the answer, every read, every list item and
// every event of the object; none sent reads as `{}`; the bounds (50 keys, 40-character keys, 500-character values)
// are 400s naming the key with nothing written; it is part of an idempotent create's fingerprint. Payouts also
// filter their list by one metadata pair and by creation time.
import { beforeAll, describe, expect, it } from 'vitest';
import { rowCounts } from '../support/row-counts.js';
import { problemType, type Answer } from '../support/requests.js';
import { individual } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';

type Metadata = Record<string, unknown>;

const longKey = 'k'.repeat(41);
/** Each bound broken once, with the pointer the 400 names. */
const refusals: { name: string; metadata: Metadata; pointer: string }[] = [
  { name: '51 keys', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, 'v'])), pointer: '#/metadata' },
  { name: 'a 41-character key', metadata: { ok: 'v', [longKey]: 'v' }, pointer: `#/metadata/${longKey}` },
  { name: 'a 501-character value', metadata: { ok: 'v', note: 'x'.repeat(501) }, pointer: '#/metadata/note' },
  { name: 'a value that is not a string', metadata: { count: 3 }, pointer: '#/metadata/count' },
  { name: 'a key with a bracket', metadata: { 'a[b]': 'v' }, pointer: '#/metadata/a[b]' },
];
/** The names every JavaScript object inherits, which a parser that builds plain objects drops or misreads. */
const inheritedNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
/** At every bound: accepted. */
const atBounds: Metadata = {
  ...Object.fromEntries(Array.from({ length: 48 }, (_, i) => [`key${i}`, `value ${i}`])),
  ['k'.repeat(40)]: 'v'.repeat(500),
  'ünïcödé/~key': 'ünïcödé',
};

describe.each(stores)('metadata on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 60_000 }, { resolve: loopbackResolver });
  let tenant: Tenant;
  const call = (
    method: string,
    path: string,
    extra: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {},
  ) => service.send(method, path, { token: tenant.merchantToken, ...extra });

  beforeAll(async () => {
    tenant = await newTenant(service, 'Meta');
  });

  /** Rows of every table but the delivery log, which the dispatcher writes in the background for earlier events. */
  const writtenRows = async () => {
    const { webhook_deliveries: _, ...rest } = await rowCounts(service.services.store);
    return rest;
  };

  /** The events of one object, as listEvents shows them. */
  async function eventsOf(query: Record<string, string>): Promise<Record<string, any>[]> {
    const answer = await call('GET', '/v1/events', { query: { ...query, PageSize: '100' } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data;
  }

  function expectRefused(answer: Answer, pointer: string) {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.type).toBe(problemType('validation-error'));
    expect(answer.body.errors.map((e: { pointer?: string }) => e.pointer)).toContain(pointer);
  }

  describe('payouts', () => {
    const create = (metadata?: Metadata, headers?: Record<string, string>) =>
      call('POST', '/v1/payouts', {
        body: { PayeeId: tenant.ids.payee, Amount: 12.5, Currency: 'USD', ...(metadata === undefined ? {} : { metadata }) },
        headers,
      });

    it('shows what the create sent on the answer, the read, the list and the event', async () => {
      const metadata = { order_id: `ORD-${kind.name}-1`, cost_center: 'marketing' };
      const created = await create(metadata);
      expect(created.status, created.text).toBe(202);
      expect(created.body.metadata).toEqual(metadata);
      const reference = created.body.PayoutUniqueReference;
      const read = await call('GET', `/v1/payouts/${reference}`);
      expect(read.body.metadata).toEqual(metadata);
      const listed = await call('GET', '/v1/payouts', { query: { PageSize: '100' } });
      expect(listed.body.data.find((p: { PayoutUniqueReference: string }) => p.PayoutUniqueReference === reference).metadata).toEqual(
        metadata,
      );
      const events = await eventsOf({ PayoutUniqueReference: reference });
      expect(events.map((e) => [e.type, e.metadata])).toEqual([['payout.created', metadata]]);
    });

    it('keeps every bound exactly: 50 keys, a 40-character key, a 500-character value, any script', async () => {
      const created = await create(atBounds);
      expect(created.status, created.text).toBe(202);
      const read = await call('GET', `/v1/payouts/${created.body.PayoutUniqueReference}`);
      expect(read.body.metadata).toEqual(atBounds);
    });

    it('reads none sent as {} everywhere', async () => {
      const created = await create();
      expect(created.body.metadata).toEqual({});
      const reference = created.body.PayoutUniqueReference;
      expect((await call('GET', `/v1/payouts/${reference}`)).body.metadata).toEqual({});
      const [event] = await eventsOf({ PayoutUniqueReference: reference });
      expect(event!.metadata).toEqual({});
    });

    it.each(refusals)('refuses $name with a 400 naming it, writing nothing', async ({ metadata, pointer }) => {
      const before = await writtenRows();
      expectRefused(await create(metadata), pointer);
      expect(await writtenRows()).toEqual(before);
    });

    it('fingerprints an idempotent create with its metadata', async () => {
      const headers = { 'Idempotency-Key': `meta-${kind.name}-${Date.now()}` };
      const first = await create({ order_id: 'A' }, headers);
      expect(first.status).toBe(202);
      const again = await create({ order_id: 'A' }, headers);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.PayoutUniqueReference).toBe(first.body.PayoutUniqueReference);
      const other = await create({ order_id: 'B' }, headers);
      expect(other.status, other.text).toBe(409);
      expect(other.body.type).toBe(problemType('idempotency-conflict'));
    });

    it('lists only the payouts holding one metadata pair, within a creation time range', async () => {
      const batch = `batch-${kind.name}`;
      const first = (await create({ batch, order_id: '1' })).body;
      const second = (await create({ batch, order_id: '2' })).body;
      await create({ batch: `${batch}-other`, order_id: '1' });
      const list = async (query: Record<string, string>) => {
        const answer = await call('GET', '/v1/payouts', { query });
        expect(answer.status, answer.text).toBe(200);
        return answer.body.data.map((p: { PayoutUniqueReference: string }) => p.PayoutUniqueReference);
      };
      expect(await list({ 'metadata[batch]': batch })).toEqual([second.PayoutUniqueReference, first.PayoutUniqueReference]);
      expect(await list({ 'metadata[order_id]': '1' })).not.toContain(second.PayoutUniqueReference);
      expect(await list({ 'metadata[batch]': 'nothing like it' })).toEqual([]);
      // CreatedFrom is inclusive, CreatedTo exclusive.
      expect(await list({ 'metadata[batch]': batch, CreatedFrom: second.CreatedOn })).toContain(second.PayoutUniqueReference);
      expect(await list({ 'metadata[batch]': batch, CreatedTo: first.CreatedOn })).toEqual([]);
      expect(await list({ 'metadata[batch]': batch, CreatedFrom: first.CreatedOn, CreatedTo: '2999-01-01T00:00:00Z' })).toEqual([
        second.PayoutUniqueReference,
        first.PayoutUniqueReference,
      ]);
    });

    // Names an object inherits (Object.prototype's members) are keys like any other: kept on write, shown on read, and a
    // filter on one narrows to the payouts holding it, never widens to every payout.
    it.each(inheritedNames)('keeps the key %s and filters on it, never widening', async (key) => {
      const value = `v-${kind.name}-${key}`;
      const created = await create({ [key]: value });
      expect(created.status, created.text).toBe(202);
      expect(Object.entries(created.body.metadata)).toEqual([[key, value]]);
      const read = await call('GET', `/v1/payouts/${created.body.PayoutUniqueReference}`);
      expect(Object.entries(read.body.metadata)).toEqual([[key, value]]);
      const list = async (query: Record<string, string>) => {
        const answer = await call('GET', '/v1/payouts', { query: { ...query, PageSize: '100' } });
        expect(answer.status, answer.text).toBe(200);
        return answer.body.data.map((p: { PayoutUniqueReference: string }) => p.PayoutUniqueReference);
      };
      expect(await list({ [`metadata[${key}]`]: value })).toEqual([created.body.PayoutUniqueReference]);
      expect(await list({ [`metadata[${key}]`]: 'nomatch' })).toEqual([]);
    });

    it('refuses a filter key that nests or holds a bracket, naming the parameter', async () => {
      for (const name of ['metadata[__proto__][x]', 'metadata[a][b]', 'metadata[constructor][prototype]']) {
        const answer = await call('GET', '/v1/payouts', { query: { [name]: '1' } });
        expect(answer.status, `${name}: ${answer.text}`).toBe(400);
        expect(
          answer.body.errors.map((e: { parameter?: string }) => e.parameter),
          name,
        ).toContain('metadata');
      }
    });

    it('refuses a filter of two pairs, a bad key, or a range that ends before it starts, naming the parameter', async () => {
      const two = await call('GET', '/v1/payouts', { query: { 'metadata[a]': '1', 'metadata[b]': '2' } });
      expect(two.status, two.text).toBe(400);
      expect(two.body.errors.map((e: { parameter?: string }) => e.parameter)).toContain('metadata');
      const long = await call('GET', '/v1/payouts', { query: { [`metadata[${longKey}]`]: '1' } });
      expect(long.status, long.text).toBe(400);
      const reversed = await call('GET', '/v1/payouts', {
        query: { CreatedFrom: '2026-02-01T00:00:00Z', CreatedTo: '2026-01-01T00:00:00Z' },
      });
      expect(reversed.status, reversed.text).toBe(422);
      expect(reversed.body.errors).toEqual([{ parameter: 'CreatedTo', detail: 'must not be before CreatedFrom' }]);
    });
  });

  describe('payees', () => {
    const create = (metadata?: Metadata, headers?: Record<string, string>) =>
      call('POST', '/v1/payees', { body: { ...individual, ...(metadata === undefined ? {} : { metadata }) }, headers });
    const update = (id: number, metadata?: Metadata) =>
      call('PATCH', `/v1/payees/${id}`, {
        body: { address: individual.address, name: 'Maria G.', ...(metadata === undefined ? {} : { metadata }) },
      });
    const listed = async (id: number) => {
      const answer = await call('POST', '/v1/payees/list', { body: {} });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.find((p: { id: number }) => p.id === id);
    };
    const platformRead = (id: number) => call('GET', `/payouts/v1/payees/${id}`);

    it('shows what the create and the update sent on the answer, the reads of both groups and the list', async () => {
      const metadata = { crm_id: `CRM-${kind.name}`, region: 'east' };
      const created = await create(metadata);
      expect(created.status, created.text).toBe(201);
      expect(created.body.metadata).toEqual(metadata);
      const id = created.body.id;
      expect((await call('GET', `/v1/payees/${id}`)).body.metadata).toEqual(metadata);
      expect((await platformRead(id)).body.metadata).toEqual(metadata);
      expect((await listed(id)).metadata).toEqual(metadata);
      // An update without metadata keeps it; with metadata replaces it whole; `{}` clears it.
      expect((await update(id)).body.metadata).toEqual(metadata);
      const replaced = await update(id, { region: 'west' });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body.metadata).toEqual({ region: 'west' });
      expect((await call('GET', `/v1/payees/${id}`)).body.metadata).toEqual({ region: 'west' });
      expect((await listed(id)).metadata).toEqual({ region: 'west' });
      expect((await update(id, {})).body.metadata).toEqual({});
      expect((await platformRead(id)).body.metadata).toEqual({});
    });

    it('keeps every bound exactly and reads none sent as {}', async () => {
      const full = await create(atBounds);
      expect(full.status, full.text).toBe(201);
      expect((await call('GET', `/v1/payees/${full.body.id}`)).body.metadata).toEqual(atBounds);
      const none = await create();
      expect(none.body.metadata).toEqual({});
      expect((await listed(none.body.id)).metadata).toEqual({});
    });

    it.each(refusals)('refuses $name on create and update with a 400 naming it, writing nothing', async ({ metadata, pointer }) => {
      const id = (await create({ kept: 'yes' })).body.id;
      const before = await writtenRows();
      expectRefused(await create(metadata), pointer);
      expectRefused(await update(id, metadata), pointer);
      expect(await writtenRows()).toEqual(before);
      expect((await call('GET', `/v1/payees/${id}`)).body).toMatchObject({ name: individual.name, metadata: { kept: 'yes' } });
    });

    it('fingerprints an idempotent create with its metadata', async () => {
      const headers = { 'Idempotency-Key': `payee-meta-${kind.name}-${Date.now()}` };
      const first = await create({ crm_id: 'A' }, headers);
      expect(first.status).toBe(201);
      const again = await create({ crm_id: 'A' }, headers);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      const other = await create({ crm_id: 'B' }, headers);
      expect(other.status, other.text).toBe(409);
      expect(other.body.type).toBe(problemType('idempotency-conflict'));
    });
  });

  describe('payment requests', () => {
    const create = (metadata?: Metadata, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
      service.send('POST', '/finance/v1/payment_request', {
        token: tenant.partnerToken,
        headers,
        body: {
          payeeId: tenant.ids.achRecipient,
          amount: 3.25,
          currency: 'USD',
          paymentMethodType: 'STANDARD',
          description: 'metadata',
          merchantId: tenant.merchantId,
          ...extra,
          ...(metadata === undefined ? {} : { metadata }),
        },
      });
    const read = (paymentId: number) => service.send('GET', `/finance/v1/payment_request/${paymentId}`, { token: tenant.partnerToken });
    const eventsFor = async (paymentId: number) =>
      (await eventsOf({ Type: 'payment.created' })).filter((e) => e.payment.paymentId === paymentId);

    it('shows what the create sent on the answer, the read, the cancel and the event; none sent reads as {}', async () => {
      const metadata = { invoice_id: `INV-${kind.name}`, batch: '7' };
      const created = await create(metadata);
      expect(created.status, created.text).toBe(201);
      expect(created.body.metadata).toEqual(metadata);
      const id = created.body.paymentId;
      expect((await read(id)).body.metadata).toEqual(metadata);
      expect((await eventsFor(id)).map((e) => e.payment.metadata)).toEqual([metadata]);
      const search = await service.send('POST', '/finance/v1/partner/search_transactions', {
        token: tenant.partnerToken,
        body: { pageSize: 100 },
      });
      expect(search.status, search.text).toBe(200);
      expect(search.body.data.find((t: { paymentId: number }) => t.paymentId === id).metadata).toEqual(metadata);
      const cancelled = await service.send('POST', `/finance/v1/payment_request/${id}/cancel`, { token: tenant.partnerToken });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body.metadata).toEqual(metadata);
      const none = await create();
      expect(none.body.metadata).toEqual({});
      expect((await read(none.body.paymentId)).body.metadata).toEqual({});
      expect((await eventsFor(none.body.paymentId)).map((e) => e.payment.metadata)).toEqual([{}]);
    });

    it.each(refusals)('refuses $name with a 400 naming it, writing nothing', async ({ metadata, pointer }) => {
      const before = await writtenRows();
      expectRefused(await create(metadata), pointer);
      expect(await writtenRows()).toEqual(before);
    });

    it('fingerprints an idempotent create (either key) with its metadata', async () => {
      const unique = { partnerPaymentUniqueId: `meta-${kind.name}-${Date.now()}` };
      const first = await create({ invoice_id: 'A' }, unique);
      expect(first.status, first.text).toBe(201);
      const again = await create({ invoice_id: 'A' }, unique);
      expect(again.body.paymentId).toBe(first.body.paymentId);
      const other = await create({ invoice_id: 'B' }, unique);
      expect(other.status, other.text).toBe(409);
      const headers = { 'Idempotency-Key': `pay-meta-${kind.name}-${Date.now()}` };
      expect((await create({ invoice_id: 'A' }, {}, headers)).status).toBe(201);
      const changed = await create({ invoice_id: 'B' }, {}, headers);
      expect(changed.status, changed.text).toBe(409);
      expect(changed.body.type).toBe(problemType('idempotency-conflict'));
    });
  });

  describe('banking transfers', () => {
    const push = (metadata?: Metadata, headers?: Record<string, string>) =>
      call('POST', '/finance/api/v1/transaction/ach/push', {
        headers,
        body: {
          accountId: tenant.ids.account,
          counterpartyId: tenant.ids.achCounterparty,
          amount: 1.5,
          currency: 'USD',
          ...(metadata === undefined ? {} : { metadata }),
        },
      });
    const internal = (metadata?: Metadata) =>
      call('POST', '/finance/api/v1/transaction/internal/transfer', {
        body: {
          accountId: tenant.ids.account,
          toAccountId: tenant.ids.reserveAccount,
          amount: 1.25,
          currency: 'USD',
          ...(metadata === undefined ? {} : { metadata }),
        },
      });
    const eventsFor = async (id: number) => (await eventsOf({ Type: 'transfer.created' })).filter((e) => e.transfer.id === id);
    const listed = async (id: number) => {
      const answer = await call('GET', `/finance/api/v1/account/${tenant.ids.account}/transactions`, { query: { PageSize: '100' } });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.find((t: { id: number }) => t.id === id);
    };

    it.each([
      ['an ACH push', push],
      ['an internal transfer', internal],
    ] as const)('shows what %s sent on the answer, the read, the list and the event; none sent reads as {}', async (_, create) => {
      const metadata = { invoice_id: `INV-${kind.name}`, batch: '9' };
      const created = await create(metadata);
      expect(created.status, created.text).toBe(201);
      expect(created.body.metadata).toEqual(metadata);
      const id = created.body.id;
      expect((await call('GET', `/finance/api/v1/transaction/${id}`)).body.metadata).toEqual(metadata);
      expect((await listed(id)).metadata).toEqual(metadata);
      expect((await eventsFor(id)).map((e) => e.transfer.metadata)).toEqual([metadata]);
      const none = await create();
      expect(none.body.metadata).toEqual({});
      expect((await call('GET', `/finance/api/v1/transaction/${none.body.id}`)).body.metadata).toEqual({});
      expect((await eventsFor(none.body.id)).map((e) => e.transfer.metadata)).toEqual([{}]);
    });

    it.each(refusals)('refuses $name with a 400 naming it, writing nothing', async ({ metadata, pointer }) => {
      const before = await writtenRows();
      expectRefused(await push(metadata), pointer);
      expectRefused(await internal(metadata), pointer);
      expect(await writtenRows()).toEqual(before);
    });

    it('fingerprints an idempotent create with its metadata', async () => {
      const headers = { 'Idempotency-Key': `transfer-meta-${kind.name}-${Date.now()}` };
      const first = await push({ invoice_id: 'A' }, headers);
      expect(first.status, first.text).toBe(201);
      expect((await push({ invoice_id: 'A' }, headers)).body.id).toBe(first.body.id);
      const other = await push({ invoice_id: 'B' }, headers);
      expect(other.status, other.text).toBe(409);
      expect(other.body.type).toBe(problemType('idempotency-conflict'));
    });
  });

  describe('businesses', () => {
    let made = 0;
    const create = (metadata?: Metadata, headers?: Record<string, string>, taxId?: string) => {
      made += 1;
      return call('POST', '/finance/api/v1/business', {
        headers,
        body: {
          legalName: `Metadata ${taxId ?? made} LLC`,
          entityType: 'LLC',
          taxId: taxId ?? `47-${String(1_000_000 + made).slice(-7)}`,
          formationDate: '2019-03-14',
          incorporationCountry: 'US',
          incorporationState: 'DE',
          address: { line1: '1 Main Street', line2: null, city: 'Chicago', state: 'IL', postalCode: '60601', countryCode: 'US' },
          phone: '+13125550198',
          email: 'treasury@example.com',
          ...(metadata === undefined ? {} : { metadata }),
        },
      });
    };
    const listed = async (id: number) => {
      const answer = await call('GET', '/finance/api/v1/business', { query: { PageSize: '100' } });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.find((b: { id: number }) => b.id === id);
    };

    it('shows what the create sent on the answer, the read and the list; none sent reads as {}', async () => {
      const metadata = { crm_account: `ACC-${kind.name}` };
      const created = await create(metadata);
      expect(created.status, created.text).toBe(201);
      expect(created.body.metadata).toEqual(metadata);
      expect((await call('GET', `/finance/api/v1/business/${created.body.id}`)).body.metadata).toEqual(metadata);
      expect((await listed(created.body.id)).metadata).toEqual(metadata);
      const none = await create();
      expect(none.body.metadata).toEqual({});
      expect((await listed(none.body.id)).metadata).toEqual({});
    });

    it.each(refusals)('refuses $name with a 400 naming it, writing nothing', async ({ metadata, pointer }) => {
      const before = await writtenRows();
      expectRefused(await create(metadata), pointer);
      expect(await writtenRows()).toEqual(before);
    });

    it('fingerprints an idempotent create with its metadata', async () => {
      const headers = { 'Idempotency-Key': `business-meta-${kind.name}-${Date.now()}` };
      const taxId = '48-7654321';
      const first = await create({ crm_account: 'A' }, headers, taxId);
      expect(first.status, first.text).toBe(201);
      expect((await create({ crm_account: 'A' }, headers, taxId)).body.id).toBe(first.body.id);
      const other = await create({ crm_account: 'B' }, headers, taxId);
      expect(other.status, other.text).toBe(409);
      expect(other.body.type).toBe(problemType('idempotency-conflict'));
    });
  });
});
