// Part `pipeline`: payouts per second from creation to the delivered payout.completed webhook, with the
// sandbox rail at full speed (SANDBOX_STEP_MS=0), on the embedded store and on PostgreSQL. After a warm-up
// batch, N payouts are created over HTTP with bounded concurrency while a local receiver (registered for
// every event, as a merchant would) counts deliveries; the clock runs from the first creation of the batch
// to its last payout.completed.
import autocannon from 'autocannon';
import { cpuTicks, ticksPerSecond } from './load.js';
import { startService } from './processes.js';
import { createMerchant, payoutBody, provision } from './provision.js';
import { onEachStore, type BenchStore, type RunsOnEachStore } from './stores.js';
import { startWebhookCounter } from './webhook-counter.js';

export interface PipelineRun {
  store: 'sqlite' | 'postgres';
  payouts: number;
  concurrency: number;
  /** Seconds to get every creation answered (202). */
  createS: number;
  /** Seconds from the first creation to the last payout.completed delivery. */
  totalS: number;
  payoutsPerSec: number;
  createdPerSec: number;
  /** CPU time of the server process (all threads) per payout, over the whole run. */
  serverCpuMsPerPayout?: number;
  /** Deliveries by event, and payouts whose payout.completed came more than once (must be 0). */
  deliveries: Record<string, number>;
  duplicateCompleted: number;
  aim?: number;
}

export type PipelineResult = RunsOnEachStore<PipelineRun>;

const payouts = () => Number(process.env.BENCH_PAYOUTS ?? 2000);
const concurrency = () => Number(process.env.BENCH_PIPELINE_CONCURRENCY ?? 32);
const warmup = () => Number(process.env.BENCH_PIPELINE_WARMUP ?? 300);

async function runOn(store: BenchStore): Promise<PipelineRun> {
  const n = payouts();
  const merchant = await createMerchant(store.url);
  const receiver = await startWebhookCounter();
  const service = await startService({ DATABASE_URL: store.url, SANDBOX_STEP_MS: '0' });
  try {
    const fixture = await provision(service.url, merchant, { webhookUrl: receiver.url });
    /** Creates `count` payouts; resolves with the time of the last answer. */
    const create = async (count: number): Promise<number> => {
      let lastAnswerAt = performance.now();
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${service.url}/v1/payouts`,
            method: 'POST',
            headers: { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' },
            body: payoutBody(fixture.payeeId),
            connections: concurrency(),
            amount: count,
            timeout: 30,
          },
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

    const cpuBefore = cpuTicks(service.process.pid!);
    const started = performance.now();
    const createS = ((await create(n)) - started) / 1000;
    await receiver.waitForCompleted(warmup() + n, 180_000);
    const totalS = (receiver.lastCompletedAt - started) / 1000;
    const cpuAfter = cpuTicks(service.process.pid!);
    // Deliveries of the other events still in flight are not waited for; payout.completed is what is measured.
    return {
      store: store.kind,
      payouts: n,
      concurrency: concurrency(),
      createS: round(createS),
      totalS: round(totalS),
      payoutsPerSec: Math.round(n / totalS),
      createdPerSec: Math.round(n / createS),
      ...(cpuBefore !== undefined && cpuAfter !== undefined
        ? { serverCpuMsPerPayout: round((((cpuAfter - cpuBefore) / ticksPerSecond) * 1000) / n) }
        : {}),
      deliveries: Object.fromEntries([...receiver.byState].map(([state, count]) => [state, count - (before.get(state) ?? 0)])),
      duplicateCompleted: [...receiver.completed.values()].filter((c) => c > 1).length,
      // Issue 15's aims: 1,400/s embedded, 1,000/s on PostgreSQL.
      aim: store.kind === 'sqlite' ? 1400 : 1000,
    };
  } finally {
    await service.stop();
    await receiver.close();
  }
}

const round = (x: number) => Math.round(x * 100) / 100;

export function runPipeline(): Promise<PipelineResult> {
  return onEachStore(
    runOn,
    (run) =>
      `  ${run.store.padEnd(8)} ${run.payouts} payouts: created in ${run.createS} s (${run.createdPerSec}/s), ` +
      `all completed webhooks in ${run.totalS} s: ${run.payoutsPerSec} payouts/s` +
      `${run.serverCpuMsPerPayout !== undefined ? ` (server CPU ${run.serverCpuMsPerPayout} ms/payout)` : ''}` +
      `; duplicates ${run.duplicateCompleted}`,
  );
}
