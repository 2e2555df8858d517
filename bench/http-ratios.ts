// Part `http`: the full stack (token check, request validation, store, JSON) against bare Express answering
// a fixed JSON body, side by side with the same connections and duration. The service runs as deployed
// (NODE_ENV=production, info logs) on the embedded store, workers off (RUN_WORKERS=false) so the write is
// measured alone rather than with the engine stepping the payouts it creates; the pipeline part measures those.
// The reads come first (a page of events read before the POSTs add payout events is the provisioned page), and
// the server's peak resident memory over the whole part is read from /proc at its end. After the payee read, the
// same read from bare Express with only the request validator in front (baseline-server.ts, VALIDATED=1): the
// share of bare Express's speed the validator alone leaves, reported beside the aims.
import { describeLoad, loadSettings, measure, type LoadResult, type LoadSettings } from './load.js';
import { peakRssMb, rssMb } from './process-memory.js';
import { startBaseline, startService } from './processes.js';
import { createMerchant, payoutBody, provision, provisionBanking } from './provision.js';
import { embeddedStore } from './stores.js';

export interface OperationRatio {
  operation: string;
  baseline: LoadResult;
  service: LoadResult;
  /** service req/s divided by baseline req/s. */
  ratio: number;
  aim: number;
  /** The server's peak resident memory (VmHWM) so far, read right after this operation's load. */
  serverPeakRssMbAfter?: number;
}

export interface ServerMemory {
  /** Resident set after provisioning, before any load. */
  beforeLoadMb?: number;
  /** Peak resident set (VmHWM) of the server process at the end of the part: the most it held under every load. */
  peakRssMb?: number;
  aimMb: number;
}

/** Bare Express with only the request validator in front, against bare Express, on one read. */
export interface ValidatorFloor {
  operation: string;
  baseline: LoadResult;
  validated: LoadResult;
  /** validated req/s divided by baseline req/s. */
  ratio: number;
}

export interface HttpRatiosResult {
  settings: LoadSettings;
  operations: OperationRatio[];
  validatorFloor?: ValidatorFloor;
  serverMemory?: ServerMemory;
}

export async function runHttpRatios(): Promise<HttpRatiosResult> {
  const settings = loadSettings();
  const store = embeddedStore();
  const merchant = await createMerchant(store.url);
  const service = await startService({ DATABASE_URL: store.url, RUN_WORKERS: 'false' });
  const baseline = await startBaseline();
  const validated = await startBaseline({ validated: true });
  try {
    const fixture = await provision(service.url, merchant);
    const banking = await provisionBanking(service.url, merchant);
    const auth = { authorization: `Bearer ${fixture.token}` };
    const read = (operation: string, path: string) => ({
      operation,
      aim: 0.4,
      baseline: { url: `${baseline.url}/fixed` },
      service: { url: `${service.url}${path}`, headers: auth },
    });
    const pid = service.process.pid!;
    const beforeLoadMb = rssMb(pid);
    // The aims: a read of one resource at 0.5 of bare Express, a page of 25 at 0.3, the create at 0.4.
    const cases = [
      { ...read('GET /v1/payees/{id}', `/v1/payees/${fixture.payeeId}`), aim: 0.5 },
      // A transfer with its two entries and its account's balance; then full default pages (25) of the
      // operating account's transfers and of the merchant's events, as provisionBanking leaves them.
      { ...read('GET /finance/api/v1/transaction/{transferId}', `/finance/api/v1/transaction/${banking.transferIds.at(-1)}`), aim: 0.5 },
      {
        ...read('GET /finance/api/v1/account/{accountId}/transactions', `/finance/api/v1/account/${banking.operatingId}/transactions`),
        aim: 0.3,
      },
      { ...read('GET /v1/events', '/v1/events'), aim: 0.3 },
      {
        operation: 'POST /v1/payouts',
        aim: 0.4,
        baseline: { url: `${baseline.url}/fixed`, method: 'POST' as const, body: payoutBody(fixture.payeeId) },
        service: { url: `${service.url}/v1/payouts`, method: 'POST' as const, headers: auth, body: payoutBody(fixture.payeeId) },
      },
    ];
    const operations: OperationRatio[] = [];
    let validatorFloor: ValidatorFloor | undefined;
    // BENCH_HTTP_OPERATIONS (parts of the operations' names, comma-separated) measures only those: to profile one.
    const only = process.env.BENCH_HTTP_OPERATIONS?.split(',').filter(Boolean);
    for (const c of cases.filter((k) => !only || only.some((o) => k.operation.includes(o)))) {
      const base = await measure(c.baseline, settings, baseline.process.pid);
      console.log(`  bare Express      ${c.operation.padEnd(52)} ${describeLoad(base)}`);
      const full = await measure(c.service, settings, pid);
      console.log(`  full stack        ${c.operation.padEnd(52)} ${describeLoad(full)}`);
      const ratio = full.requestsPerSec / base.requestsPerSec;
      const peakAfter = peakRssMb(pid);
      console.log(`  ratio ${ratio.toFixed(2)} (aim >= ${c.aim}); server peak RSS so far ${peakAfter ?? '?'} MB`);
      operations.push({
        operation: c.operation,
        baseline: base,
        service: full,
        ratio,
        aim: c.aim,
        ...(peakAfter === undefined ? {} : { serverPeakRssMbAfter: peakAfter }),
      });
      if (c.operation === 'GET /v1/payees/{id}') {
        const alone = await measure(
          { url: `${validated.url}/v1/payees/${fixture.payeeId}`, headers: auth },
          settings,
          validated.process.pid,
        );
        console.log(`  validator alone   ${c.operation.padEnd(52)} ${describeLoad(alone)}`);
        validatorFloor = { operation: c.operation, baseline: base, validated: alone, ratio: alone.requestsPerSec / base.requestsPerSec };
      }
    }
    const serverMemory: ServerMemory = { ...(beforeLoadMb === undefined ? {} : { beforeLoadMb }), aimMb: 150 };
    const peak = peakRssMb(pid);
    if (peak !== undefined) serverMemory.peakRssMb = peak;
    console.log(`  server peak RSS ${peak ?? '(not measurable here)'} MB (${beforeLoadMb ?? '?'} MB before the load; aim <= 150 MB)`);
    return { settings, operations, ...(validatorFloor ? { validatorFloor } : {}), serverMemory };
  } finally {
    await Promise.all([service.stop(), baseline.stop(), validated.stop()]);
    await store.drop();
  }
}
