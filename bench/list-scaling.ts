// Part `list`: a page of each of four lists at 10,000 and then 1,000,000 stored rows of one merchant, on the
// embedded store: the merchant's payouts (GET /v1/payouts, payout-rows.ts), its events (GET /v1/events,
// event-rows.ts), one account's transfers (GET /finance/api/v1/account/{accountId}/transactions, transfer-rows.ts)
// and the same account's ledger entries (.../ledger-entries), each with and without a filter. Each list has a fresh store and service (workers off); the
// rows are written straight into the store between the measurements, and the service reads them through the
// API like any caller. The aim: the page at 1,000,000 within 1.5x of the page at 10,000 (p50).
import { openStore, type Store } from '../server/platform/store/database.js';
import { insertEvents } from './event-rows.js';
import { describeLoad, loadSettings, measure, type LoadResult } from './load.js';
import { insertPayouts } from './payout-rows.js';
import { startService } from './processes.js';
import { createMerchant, provision, provisionBanking, type Fixture } from './provision.js';
import { embeddedStore } from './stores.js';
import { insertTransfers } from './transfer-rows.js';

export interface ListQueryResult {
  query: string;
  /** By stored rows: 10000 and 1000000. */
  at: Record<string, LoadResult>;
  /** p50 at the largest size divided by p50 at the smallest. */
  p50Ratio: number;
  aim: number;
}

export interface ListResult {
  /** The operation's path, as the contract writes it. */
  operation: string;
  /** What is stored in bulk: payouts, events or transfers (each transfer with its ledger entries). */
  rows: string;
  insertS: Record<string, number>;
  queries: ListQueryResult[];
}

export interface ListScalingResult {
  sizes: number[];
  lists: ListResult[];
}

/** Adds `count` rows after the `first` already stored, the newest at `endsAt`; returns the seconds it took. */
type Insert = (writer: Store, first: number, count: number, endsAt: number) => Promise<number>;

interface ListCase {
  operation: string;
  rows: string;
  /** Provisions what the rows belong to over the API; returns the list's path and how to add its rows. */
  prepare(serviceUrl: string, fixture: Fixture): Promise<{ path: string; insert: Insert }>;
  queries: string[];
}

const cases: ListCase[] = [
  {
    operation: 'GET /v1/payouts',
    rows: 'payouts',
    queries: ['PageSize=25', 'PageSize=25&Status=failed'],
    prepare: async (_url, fixture) => ({
      path: '/v1/payouts',
      insert: (writer, first, count, endsAt) =>
        insertPayouts(
          writer,
          { merchantId: fixture.merchantId, payeeId: fixture.payeeId, accountId: fixture.accountId },
          first,
          count,
          endsAt,
        ),
    }),
  },
  {
    operation: 'GET /v1/events',
    rows: 'events',
    // payout.failed is one event in 100.
    queries: ['PageSize=25', 'PageSize=25&Type=payout.failed'],
    prepare: async (_url, fixture) => ({
      path: '/v1/events',
      insert: (writer, first, count, endsAt) => insertEvents(writer, fixture.merchantId, first, count, endsAt),
    }),
  },
  {
    operation: 'GET /finance/api/v1/account/{accountId}/transactions',
    rows: 'transfers',
    // A third are inbound credits; the rest internal transfers to and from the reserve account.
    queries: ['PageSize=25', 'PageSize=25&Type=INBOUND_ACH'],
    prepare: async (url, fixture) => {
      const banking = await provisionBanking(url, fixture, 2);
      return {
        path: `/finance/api/v1/account/${banking.operatingId}/transactions`,
        insert: (writer, first, count, endsAt) => insertTransfers(writer, banking.transferIds, first, count, endsAt),
      };
    },
  },
  {
    operation: 'GET /finance/api/v1/account/{accountId}/ledger-entries',
    rows: 'ledger entries',
    // The default is every status of a statement (several: a walk by id); one status is a walk of its own index.
    queries: ['PageSize=25', 'PageSize=25&Status=posted'],
    prepare: async (url, fixture) => {
      const banking = await provisionBanking(url, fixture, 2);
      return {
        path: `/finance/api/v1/account/${banking.operatingId}/ledger-entries`,
        insert: (writer, first, count, endsAt) => insertTransfers(writer, banking.transferIds, first, count, endsAt),
      };
    },
  },
];

const sizes = () => (process.env.BENCH_LIST_SIZES ?? '10000,1000000').split(',').map(Number);

async function measureList(c: ListCase): Promise<ListResult> {
  const settings = { ...loadSettings(), durationS: Number(process.env.BENCH_LIST_DURATION_S ?? 5) };
  const store = embeddedStore();
  const merchant = await createMerchant(store.url);
  const service = await startService({ DATABASE_URL: store.url, RUN_WORKERS: 'false' });
  const writer = await openStore(store.url, { migrate: false });
  try {
    const fixture = await provision(service.url, merchant);
    const { path, insert } = await c.prepare(service.url, fixture);
    const auth = { authorization: `Bearer ${fixture.token}` };
    const at: Record<string, Record<string, LoadResult>> = Object.fromEntries(c.queries.map((q) => [q, {}]));
    const insertS: Record<string, number> = {};
    const endsAt = Date.now() - 60_000;
    let stored = 0;
    for (const size of sizes()) {
      insertS[size] = Math.round((await insert(writer, stored, size - stored, endsAt)) * 10) / 10;
      stored = size;
      console.log(`  ${size} ${c.rows} stored (${insertS[size]} s to insert)`);
      for (const query of c.queries) {
        const result = await measure({ url: `${service.url}${path}?${query}`, headers: auth }, settings, service.process.pid);
        console.log(`    ${c.operation}?${query.padEnd(30)} ${describeLoad(result)}`);
        at[query]![size] = result;
      }
    }
    const [smallest, largest] = [sizes()[0]!, sizes()[sizes().length - 1]!];
    const queries = c.queries.map((query) => {
      const p50Ratio = at[query]![largest]!.p50Ms / at[query]![smallest]!.p50Ms;
      console.log(`  ${c.operation}?${query}: p50 at ${largest} / at ${smallest} = ${p50Ratio.toFixed(2)} (aim <= 1.5)`);
      return { query, at: at[query]!, p50Ratio, aim: 1.5 };
    });
    return { operation: c.operation, rows: c.rows, insertS, queries };
  } finally {
    await writer.close();
    await service.stop();
    await store.drop();
  }
}

export async function runListScaling(): Promise<ListScalingResult> {
  const only = process.env.BENCH_LISTS?.split(',');
  const lists: ListResult[] = [];
  for (const c of cases) if (!only || only.some((name) => c.operation.includes(name))) lists.push(await measureList(c));
  return { sizes: sizes(), lists };
}
