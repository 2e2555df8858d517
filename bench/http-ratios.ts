// Part `http`: the full stack (token check, request validation, store, JSON) against bare Express answering
// a fixed JSON body, side by side with the same connections and duration. The service runs as deployed
// (NODE_ENV=production, info logs) on the embedded store, workers off (RUN_WORKERS=false) so the write is
// measured alone rather than with the engine stepping the payouts it creates; the pipeline part measures those.
import { describeLoad, loadSettings, measure, type LoadResult, type LoadSettings } from './load.js';
import { startBaseline, startService } from './processes.js';
import { createMerchant, payoutBody, provision } from './provision.js';
import { embeddedStore } from './stores.js';

export interface OperationRatio {
  operation: string;
  baseline: LoadResult;
  service: LoadResult;
  /** service req/s divided by baseline req/s. */
  ratio: number;
  aim: number;
}

export interface HttpRatiosResult {
  settings: LoadSettings;
  operations: OperationRatio[];
}

export async function runHttpRatios(): Promise<HttpRatiosResult> {
  const settings = loadSettings();
  const store = embeddedStore();
  const merchant = await createMerchant(store.url);
  const service = await startService({ DATABASE_URL: store.url, RUN_WORKERS: 'false' });
  const baseline = await startBaseline();
  try {
    const fixture = await provision(service.url, merchant);
    const auth = { authorization: `Bearer ${fixture.token}` };
    const cases = [
      {
        operation: 'GET /v1/payees/{id}',
        aim: 0.5,
        baseline: { url: `${baseline.url}/fixed` },
        service: { url: `${service.url}/v1/payees/${fixture.payeeId}`, headers: auth },
      },
      {
        operation: 'POST /v1/payouts',
        aim: 0.4,
        baseline: { url: `${baseline.url}/fixed`, method: 'POST' as const, body: payoutBody(fixture.payeeId) },
        service: { url: `${service.url}/v1/payouts`, method: 'POST' as const, headers: auth, body: payoutBody(fixture.payeeId) },
      },
    ];
    const operations: OperationRatio[] = [];
    for (const c of cases) {
      const base = await measure(c.baseline, settings, baseline.process.pid);
      console.log(`  bare Express      ${c.operation.padEnd(22)} ${describeLoad(base)}`);
      const full = await measure(c.service, settings, service.process.pid);
      console.log(`  full stack        ${c.operation.padEnd(22)} ${describeLoad(full)}`);
      const ratio = full.requestsPerSec / base.requestsPerSec;
      console.log(`  ratio ${ratio.toFixed(2)} (aim >= ${c.aim})`);
      operations.push({ operation: c.operation, baseline: base, service: full, ratio, aim: c.aim });
    }
    return { settings, operations };
  } finally {
    await Promise.all([service.stop(), baseline.stop()]);
    await store.drop();
  }
}
