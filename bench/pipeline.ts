// Part `pipeline`: payouts per second from creation to the delivered payout.completed webhook, with the
// sandbox rail at full speed (SANDBOX_STEP_MS=0), on the embedded store and on PostgreSQL. After a warm-up
// batch, N payouts are created over HTTP with bounded concurrency while a local receiver (registered for
// every event, as a merchant would) counts deliveries; the clock runs from the first creation of the batch
// to its last payout.completed.
//
// Four runs a store, each on a fresh store and receiver, in this order: the bare pipeline (bare-pipeline-server.ts:
// the least Node does for a payout) in one process, the service in one process (WEB_CONCURRENCY=1), the bare
// pipeline in as many processes as the service runs with every core, and the service with every core (npm start's
// default: one process per core, one of them the worker process). Reported: each run, the service's rate over the
// bare pipeline's with the same processes, and each pipeline's every-core rate over its one-process rate.
import autocannon from 'autocannon';
import { loadConfig } from '../server/platform/config.js';
import { processShape } from '../server/primary-role.js';
import { cpuTicks, processRole, processTree, ticksPerSecond, treeCpuTicks } from './load.js';
import { type Child, startBarePipeline, startService } from './processes.js';
import { createMerchant, payoutBody, provision } from './provision.js';
import { type BenchStore, embeddedStore, onEachStore, postgresStore, type RunsOnEachStore } from './stores.js';
import { startWebhookCounter } from './webhook-counter.js';

export interface PipelineRun {
  /** `service` (npm start's entry) or `bare` (bare-pipeline-server.ts). */
  pipeline: 'service' | 'bare';
  /** Processes that do the work: the service's HTTP and worker processes (its primary only forwards), the bare ones. */
  processes: number;
  /** The service's shape: its HTTP and worker processes (absent: one process doing everything). */
  web?: number;
  workers?: number;
  payouts: number;
  concurrency: number;
  /** Seconds to get every creation answered (202). */
  createS: number;
  /** Seconds from the first creation to the last payout.completed delivery. */
  totalS: number;
  payoutsPerSec: number;
  createdPerSec: number;
  /** CPU time of the server's processes (all of them, all threads) per payout, over the whole run. */
  serverCpuMsPerPayout?: number;
  /** The same by process role (`primary`, `web`, `worker`; `process` for one that does everything), summed per role. */
  cpuMsPerPayoutByRole?: Record<string, number>;
  /** CPU time of the benchmark's own process (the load generator and the receiver) per payout. */
  benchCpuMsPerPayout: number;
  /** Deliveries by event, and payouts whose payout.completed came more than once (must be 0). */
  deliveries: Record<string, number>;
  duplicateCompleted: number;
}

export interface PipelineStoreResult {
  store: 'sqlite' | 'postgres';
  payouts: number;
  runs: PipelineRun[];
  /** The service's payouts/s over the bare pipeline's, with one process and with every core. */
  serviceToBare: { oneProcess: number; allCores: number };
  /** Each pipeline's payouts/s with every core over its one-process payouts/s. */
  allCoresToOne: { service: number; bare: number };
  aims: { serviceToBare: number; allCoresToOne: number };
  /** The service's every-core payouts/s: issue 15's absolute aims (1,400/s embedded, 1,000/s on PostgreSQL). */
  payoutsPerSec: number;
  aim: number;
}

export type PipelineResult = RunsOnEachStore<PipelineStoreResult>;

const payouts = () => Number(process.env.BENCH_PAYOUTS ?? 2000);
const concurrency = () => Number(process.env.BENCH_PIPELINE_CONCURRENCY ?? 32);
const warmup = () => Number(process.env.BENCH_PIPELINE_WARMUP ?? 300);
/**
 * The service with every core: npm start's default shape (one process per core, one of them the worker process),
 * or BENCH_PIPELINE_WEB_CONCURRENCY HTTP processes beside one worker process.
 */
function everyCore(): { env: string; web: number; workers: number } {
  const asked = process.env.BENCH_PIPELINE_WEB_CONCURRENCY;
  const shape = processShape(loadConfig({ DATABASE_URL: 'store.sqlite', ...(asked ? { WEB_CONCURRENCY: asked } : {}) }));
  return { env: asked ?? '', web: shape?.web ?? 1, workers: shape?.workers ?? 0 };
}

type Shape = { pipeline: 'service'; env: string; web: number; workers: number } | { pipeline: 'bare'; processes: number };

/**
 * CPU ticks of a server's processes by role: the root (`primary` when it forked processes with a role, `process`
 * otherwise) and each forked role; any other child (the build's esbuild service) counts with the root.
 */
function cpuByRole(pid: number): Record<string, number> {
  const tree = processTree(pid);
  const roles = new Map(tree.map((p) => [p, p === pid ? undefined : processRole(p)]));
  const root = [...roles.values()].some((role) => role !== undefined) ? 'primary' : 'process';
  const byRole: Record<string, number> = {};
  for (const [p, role] of roles) byRole[role ?? root] = (byRole[role ?? root] ?? 0) + (cpuTicks(p) ?? 0);
  return byRole;
}

async function freshLike(store: BenchStore): Promise<BenchStore> {
  if (store.kind === 'sqlite') return embeddedStore();
  const fresh = await postgresStore();
  if ('skipped' in fresh) throw new Error(`a second PostgreSQL database: ${fresh.skipped}`);
  return fresh;
}

export async function runShape(store: BenchStore, shape: Shape): Promise<PipelineRun> {
  const n = payouts();
  const receiver = await startWebhookCounter();
  let server: Child | undefined;
  try {
    let url: string;
    let headers: Record<string, string> = { 'content-type': 'application/json' };
    let body: string;
    if (shape.pipeline === 'service') {
      const merchant = await createMerchant(store.url);
      server = await startService({
        DATABASE_URL: store.url,
        SANDBOX_STEP_MS: '0',
        WEB_CONCURRENCY: shape.env,
      });
      const fixture = await provision(server.url, merchant, { webhookUrl: receiver.url });
      url = `${server.url}/v1/payouts`;
      headers = { ...headers, authorization: `Bearer ${fixture.token}` };
      body = payoutBody(fixture.payeeId);
    } else {
      server = await startBarePipeline(store.url, receiver.url, shape.processes);
      url = `${server.url}/payouts`;
      body = payoutBody(1);
    }
    /** Creates `count` payouts; resolves with the time of the last answer. */
    const create = async (count: number): Promise<number> => {
      let lastAnswerAt = performance.now();
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          { url, method: 'POST', headers, body, connections: concurrency(), amount: count, timeout: 30 },
          (err, r) => (err ? reject(err) : resolve(r)),
        );
        // autocannon notices that `amount` is reached only on its one-second tick: the last answer is the end.
        instance.on('response', () => {
          lastAnswerAt = performance.now();
        });
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`creating ${count} payouts: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      return lastAnswerAt;
    };
    // A warm-up batch through the whole pipeline first, as the http part warms up: a fresh process runs
    // its first few hundred payouts on code the JIT has not optimised yet.
    await create(warmup());
    await receiver.waitForCompleted(warmup(), 60_000);
    const before = new Map(receiver.byState);

    const pid = server.process.pid!;
    const cpuBefore = treeCpuTicks(pid);
    const rolesBefore = cpuByRole(pid);
    const benchBefore = process.cpuUsage();
    const started = performance.now();
    const createS = ((await create(n)) - started) / 1000;
    await receiver.waitForCompleted(warmup() + n, 180_000);
    const totalS = (receiver.lastCompletedAt - started) / 1000;
    const cpuAfter = treeCpuTicks(pid);
    const rolesAfter = cpuByRole(pid);
    const bench = process.cpuUsage(benchBefore);
    const processes = shape.pipeline === 'service' ? shape.web + shape.workers : shape.processes;
    // Deliveries of the other events still in flight are not waited for; payout.completed is what is measured.
    return {
      pipeline: shape.pipeline,
      processes,
      ...(shape.pipeline === 'service' && shape.workers > 0 ? { web: shape.web, workers: shape.workers } : {}),
      payouts: n,
      concurrency: concurrency(),
      createS: round(createS),
      totalS: round(totalS),
      payoutsPerSec: Math.round(n / totalS),
      createdPerSec: Math.round(n / createS),
      ...(cpuBefore !== undefined && cpuAfter !== undefined
        ? { serverCpuMsPerPayout: round((((cpuAfter - cpuBefore) / ticksPerSecond) * 1000) / n) }
        : {}),
      cpuMsPerPayoutByRole: Object.fromEntries(
        Object.entries(rolesAfter).map(([role, ticks]) => [
          role,
          round((((ticks - (rolesBefore[role] ?? 0)) / ticksPerSecond) * 1000) / n),
        ]),
      ),
      benchCpuMsPerPayout: round((bench.user + bench.system) / 1000 / n),
      deliveries: Object.fromEntries([...receiver.byState].map(([state, count]) => [state, count - (before.get(state) ?? 0)])),
      duplicateCompleted: [...receiver.completed.values()].filter((c) => c > 1).length,
    };
  } finally {
    await server?.stop();
    await receiver.close();
  }
}

export const describeRun = (run: PipelineRun): string =>
  `${run.pipeline.padEnd(7)} ${
    run.web !== undefined ? `${run.web} HTTP + ${run.workers} worker processes` : `${run.processes} process${run.processes > 1 ? 'es' : ''}`
  }`.padEnd(40) +
  ` ${run.payouts} payouts: created in ${run.createS} s (${run.createdPerSec}/s), all completed webhooks in ${run.totalS} s: ` +
  `${run.payoutsPerSec} payouts/s${
    run.serverCpuMsPerPayout !== undefined
      ? ` (server CPU ${run.serverCpuMsPerPayout} ms/payout: ${Object.entries(run.cpuMsPerPayoutByRole ?? {})
          .map(([role, ms]) => `${role} ${ms}`)
          .join(', ')}; bench ${run.benchCpuMsPerPayout})`
      : ''
  }` +
  `; duplicates ${run.duplicateCompleted}`;

async function runOn(store: BenchStore): Promise<PipelineStoreResult> {
  const all = everyCore();
  const shapes: Shape[] = [
    { pipeline: 'bare', processes: 1 },
    { pipeline: 'service', env: '1', web: 1, workers: 0 },
    { pipeline: 'bare', processes: all.web + all.workers },
    { pipeline: 'service', ...all },
  ];
  const runs: PipelineRun[] = [];
  for (const [i, shape] of shapes.entries()) {
    // Each run on a store of its own (the first on the one given), so none reads what another wrote.
    const own = i === 0 ? store : await freshLike(store);
    try {
      const run = await runShape(own, shape);
      console.log(`  ${store.kind.padEnd(8)} ${describeRun(run)}`);
      runs.push(run);
    } finally {
      if (own !== store) await own.drop();
    }
  }
  const [bareOne, serviceOne, bareAll, serviceAll] = runs as [PipelineRun, PipelineRun, PipelineRun, PipelineRun];
  return {
    store: store.kind,
    payouts: payouts(),
    runs,
    serviceToBare: {
      oneProcess: ratio(serviceOne.payoutsPerSec, bareOne.payoutsPerSec),
      allCores: ratio(serviceAll.payoutsPerSec, bareAll.payoutsPerSec),
    },
    allCoresToOne: {
      service: ratio(serviceAll.payoutsPerSec, serviceOne.payoutsPerSec),
      bare: ratio(bareAll.payoutsPerSec, bareOne.payoutsPerSec),
    },
    // Issue 25's aims.
    aims: { serviceToBare: 0.5, allCoresToOne: 1.6 },
    payoutsPerSec: serviceAll.payoutsPerSec,
    aim: store.kind === 'sqlite' ? 1400 : 1000,
  };
}

const round = (x: number) => Math.round(x * 100) / 100;
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export function runPipeline(): Promise<PipelineResult> {
  return onEachStore(
    runOn,
    (r) =>
      `  ${r.store.padEnd(8)} service / bare: ${r.serviceToBare.oneProcess} in one process, ${r.serviceToBare.allCores} with every core ` +
      `(aim >= ${r.aims.serviceToBare}); every core / one process: service ${r.allCoresToOne.service}, bare ${r.allCoresToOne.bare} ` +
      `(aim >= ${r.aims.allCoresToOne})`,
  );
}
