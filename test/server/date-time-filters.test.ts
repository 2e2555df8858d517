// Every date-time a request carries is read by one parser (server/platform/store/timestamps.ts `parseTimestamp`). The
// request validator accepts RFC 3339's leap second (`23:59:60Z`, or the same instant at an offset), which
// `Date.parse` read as NaN: PostgreSQL answered 500 and SQLite matched nothing and skipped the "end before start"
// check. The table below is every format: date-time query parameter and top-level body field of every operation,
// read from the bundled documents, so a new date-time filter is covered without touching this file.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parseTimestamp } from '../../server/platform/store/timestamps.js';
import { bundles, resolve } from '../support/contract.js';
import { distinctOperations, type ServedOperation } from '../support/operations.js';
import { fill, problemType } from '../support/requests.js';
import { stores } from '../support/stores.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService } from '../support/use-service.js';
import { signedIn } from '../support/console.js';

interface DateTimeField {
  name: string;
  in: 'query' | 'body';
}

function dateTimeFields(o: ServedOperation): DateTimeField[] {
  const query = o.parameters
    .filter((p) => p.in === 'query' && p.schema.format === 'date-time')
    .map((p) => ({ name: p.name, in: 'query' as const }));
  const properties = Object.entries<Record<string, unknown>>(o.bodySchema?.properties ?? {});
  const body = properties
    .filter(([, s]) => resolve(bundles[o.group], s).format === 'date-time')
    .map(([name]) => ({ name, in: 'body' as const }));
  return [...query, ...body];
}

/** Each operation's date-time fields as ranges: a start (From, Start, begin) followed by its end (To, End). */
const table = distinctOperations.flatMap((o) => {
  const fields = dateTimeFields(o);
  const ranges: { o: ServedOperation; start: DateTimeField; end: DateTimeField }[] = [];
  for (let i = 0; i < fields.length; i += 2) ranges.push({ o, start: fields[i]!, end: fields[i + 1]! });
  return ranges;
});

describe('the date-time parser', () => {
  const at = { parameter: 'CreatedFrom' };
  it.each([
    ['2026-06-30T23:59:60Z', '2026-06-30T23:59:59.999Z'],
    ['2026-06-30T23:59:60.5Z', '2026-06-30T23:59:59.999Z'],
    ['2026-07-01T05:29:60+05:30', '2026-06-30T23:59:59.999Z'],
    ['2026-07-01T05:29:60+0530', '2026-06-30T23:59:59.999Z'],
    ['2026-06-30T18:59:60-05:00', '2026-06-30T23:59:59.999Z'],
    ['2026-06-30t12:00:00z', '2026-06-30T12:00:00.000Z'],
    ['2026-06-30 12:00:00+05', '2026-06-30T07:00:00.000Z'],
    ['2026-06-30T12:00:00.123456789Z', '2026-06-30T12:00:00.123Z'],
    ['2026-06-30T12:00:00.1-00:00', '2026-06-30T12:00:00.100Z'],
    ['2024-02-29T00:00:00+23:59', '2024-02-28T00:01:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0050-03-01T00:00:00Z', '0050-03-01T00:00:00.000Z'],
    ['9999-12-31T23:59:60Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseTimestamp(text, at)).toBe(Date.parse(iso));
  });

  it.each([
    'yesterday',
    '2026-06-30',
    '2026-06-30T12:00Z',
    '2026-06-30T12:00:00',
    '2026-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-06-31T00:00:00Z',
    '2026-06-30T24:00:00Z',
    '2026-06-30T12:60:00Z',
    '2026-06-30T12:00:61Z',
    '2026-06-30T23:59:60+05:30',
    '2026-06-30T12:00:60Z',
    '2026-06-30T12:00:00+24:00',
    '2026-06-30T12:00:00+05:60',
    '2026-06-30T12:00:00.Z',
  ])('refuses %s with a 400 naming the field', (text) => {
    let thrown: unknown;
    try {
      parseTimestamp(text, { pointer: '#/beginDate' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ status: 400, kind: 'validation-error', extra: { errors: [{ pointer: '#/beginDate' }] } });
  });
});

describe.each(stores)('date-time filters on $name', (kind) => {
  const service = useService(kind, {}, { resolve: loopbackResolver, workers: false }); // Nothing moves between two reads compared
  let tenant: Tenant;
  /** The console's session of the tenant's merchant (the request log lists the tenant's own API requests). */
  let consoleHeaders: Record<string, string>;

  beforeAll(async () => {
    tenant = await newTenant(service, 'Leap');
    const { browser } = await signedIn(service, { kind: 'merchant', id: tenant.merchantId });
    consoleHeaders = { cookie: browser.cookie!, origin: service.baseUrl };
  });

  const call = (o: ServedOperation, values: Record<string, string>) => {
    const path = fill(o.url, { accountId: tenant.ids.account });
    const token = o.caller === 'partner' ? tenant.partnerToken : o.caller === 'console' ? undefined : tenant.merchantToken;
    const headers = o.caller === 'console' ? consoleHeaders : undefined;
    const inQuery = (f: DateTimeField) => f.in === 'query';
    const fields = dateTimeFields(o);
    const query = Object.fromEntries(Object.entries(values).filter(([n]) => fields.some((f) => f.name === n && inQuery(f))));
    const body = Object.fromEntries(Object.entries(values).filter(([n]) => fields.some((f) => f.name === n && !inQuery(f))));
    return service.send(o.method.toUpperCase(), path, { token, headers, query, ...(o.bodySchema ? { body } : {}) });
  };
  // A balance's `asOf` is the time of the read, not of the records.
  const stable = (body: unknown) => JSON.parse(JSON.stringify(body, (key, value) => (key === 'asOf' ? undefined : value)));
  const fieldAt = (f: DateTimeField) => (f.in === 'query' ? { parameter: f.name } : { pointer: `#/${f.name}` });

  it('covers every date-time filter of the contract', () => {
    expect(table.map(({ o, start, end }) => `${o.group} ${o.operationId} ${start.name}..${end.name}`)).toEqual([
      'merchant listPayouts CreatedFrom..CreatedTo',
      'merchant listEvents CreatedFrom..CreatedTo',
      'platform listPayouts CreatedFrom..CreatedTo',
      'platform listEvents CreatedFrom..CreatedTo',
      'partner listPartnerEvents CreatedFrom..CreatedTo',
      'banking listAccountTransfers CreatedFrom..CreatedTo',
      'counterparty searchTransactions beginDate..endDate',
      'counterparty searchTransactions postDateStart..postDateEnd',
      'counterparty searchTransactions updatedStart..updatedEnd',
      'console listRequestLogs CreatedFrom..CreatedTo',
    ]);
  });

  describe.each(table.map((r) => [`${r.o.group} ${r.o.operationId} ${r.start.name}..${r.end.name}`, r] as const))('%s', (_, r) => {
    it('reads a leap second, in UTC or at an offset, as the last millisecond of its minute', async () => {
      for (const field of [r.start, r.end]) {
        // Far before and far after every record: a range start matches all, an end none, and the reverse.
        for (const [leap, same] of [
          ['2000-12-31T23:59:60Z', '2000-12-31T23:59:59.999Z'],
          ['2001-01-01T05:29:60+05:30', '2000-12-31T23:59:59.999Z'],
          ['2999-12-31T18:59:60-05:00', '2999-12-31T23:59:59.999Z'],
        ] as const) {
          // The request log is written in batches after the requests it records (the earlier tests' among them):
          // what waits is written first, and a pair that a batch written meanwhile split is asked again.
          while ((await service.services.requestLogs.flush()) > 0);
          await vi.waitFor(
            async () => {
              const [answer, expected] = await Promise.all([call(r.o, { [field.name]: leap }), call(r.o, { [field.name]: same })]);
              expect(answer.status, `${field.name}=${leap}: ${answer.text}`).toBe(200);
              expect(stable(answer.body)).toEqual(stable(expected.body));
            },
            { timeout: 5000, interval: 100 },
          );
        }
      }
    });

    it('holds a range whose end is before its leap-second start to be contradictory (422), and one ending at it whole', async () => {
      for (const start of ['2026-06-30T23:59:60Z', '2026-07-01T05:29:60+05:30']) {
        const before = await call(r.o, { [r.start.name]: start, [r.end.name]: '2026-06-30T23:59:59.998Z' });
        expect(before.status, before.text).toBe(422);
        expect(before.body).toMatchObject({ type: problemType('business-rule'), errors: [fieldAt(r.end)] });
        const same = await call(r.o, { [r.start.name]: start, [r.end.name]: '2026-06-30T23:59:59.999Z' });
        expect(same.status, same.text).toBe(200);
      }
    });
  });

  it('finds records by a leap-second bound (the range from one before them to one after them holds them)', async () => {
    // The tenant's records exist: each list, bounded by leap seconds on either side of them, is not empty.
    for (const o of new Set(table.map((r) => r.o))) {
      const [start] = dateTimeFields(o);
      const end = dateTimeFields(o)[1]!;
      const answer = await call(o, { [start!.name]: '2000-12-31T23:59:60Z', [end.name]: '2999-12-31T23:59:60Z' });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data.length, `${o.operationId}`).toBeGreaterThan(0);
    }
  });
});
