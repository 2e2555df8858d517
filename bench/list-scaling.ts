// Part `list`: a page of payouts (GET /v1/payouts?PageSize=25, and with a Status filter) with 10,000 and
// then 1,000,000 stored payouts of one merchant, on the embedded store. The rows are written straight into
// the store between the two measurements (payout-rows.ts); the service, workers off, reads them through
// the API like any caller. The aim: the page at 1,000,000 within 1.5x of the page at 10,000.
import { openStore } from '../server/store/database.js';
import { describeLoad, loadSettings, measure, type LoadResult } from './load.js';
import { insertPayouts } from './payout-rows.js';
import { startService } from './processes.js';
import { createMerchant, provision } from './provision.js';
import { embeddedStore } from './stores.js';

export interface ListQueryResult {
  query: string;
  /** By stored payouts: 10000 and 1000000. */
  at: Record<string, LoadResult>;
  /** p50 at the largest size divided by p50 at the smallest. */
  p50Ratio: number;
  aim: number;
}

export interface ListScalingResult {
  sizes: number[];
  insertS: Record<string, number>;
  queries: ListQueryResult[];
}

const sizes = () => (process.env.BENCH_LIST_SIZES ?? '10000,1000000').split(',').map(Number);

export async function runListScaling(): Promise<ListScalingResult> {
  const settings = { ...loadSettings(), durationS: Number(process.env.BENCH_LIST_DURATION_S ?? 5) };
  const store = embeddedStore();
  const merchant = await createMerchant(store.url);
  const service = await startService({ DATABASE_URL: store.url, RUN_WORKERS: 'false' });
  const writer = await openStore(store.url, { migrate: false });
  try {
    const fixture = await provision(service.url, merchant);
    const owner = { merchantId: merchant.merchantId, payeeId: fixture.payeeId, accountId: fixture.accountId };
    const auth = { authorization: `Bearer ${fixture.token}` };
    const queries = ['PageSize=25', 'PageSize=25&Status=failed'];
    const at: Record<string, Record<string, LoadResult>> = Object.fromEntries(queries.map((q) => [q, {}]));
    const insertS: Record<string, number> = {};
    const endsAt = Date.now() - 60_000;
    let stored = 0;
    for (const size of sizes()) {
      insertS[size] = Math.round((await insertPayouts(writer, owner, stored, size - stored, endsAt)) * 10) / 10;
      stored = size;
      console.log(`  ${size} payouts stored (${insertS[size]} s to insert)`);
      for (const query of queries) {
        const result = await measure({ url: `${service.url}/v1/payouts?${query}`, headers: auth }, settings, service.process.pid);
        console.log(`    GET /v1/payouts?${query.padEnd(26)} ${describeLoad(result)}`);
        at[query]![size] = result;
      }
    }
    const [smallest, largest] = [sizes()[0]!, sizes()[sizes().length - 1]!];
    const results = queries.map((query) => {
      const p50Ratio = at[query]![largest]!.p50Ms / at[query]![smallest]!.p50Ms;
      console.log(`  ${query}: p50 at ${largest} / at ${smallest} = ${p50Ratio.toFixed(2)} (aim <= 1.5)`);
      return { query, at: at[query]!, p50Ratio, aim: 1.5 };
    });
    return { sizes: sizes(), insertS, queries: results };
  } finally {
    await writer.close();
    await service.stop();
    await store.drop();
  }
}
