// Part `webhooks`: does a receiver that never answers delay another merchant's events? The p99 latency (event
// written → delivery received) of a fast receiver, first alone, then while another merchant's receiver hangs
// with 1,000 of its events pending (each of its deliveries lasts the whole 5 s timeout), on the embedded store
// and on PostgreSQL. Same service process, same paced load of the fast merchant in both phases
// (SANDBOX_STEP_MS=0: each payout's four events within milliseconds); aim: the p99 with the hanging receiver
// within 1 s of the p99 without it.
import { openStore } from '../server/platform/store/database.js';
import { startHangingReceiver, type HangingReceiver } from './hanging-receiver.js';
import { startLatencyReceiver, type LatencyReceiver } from './latency-receiver.js';
import { startService } from './processes.js';
import { createMerchant, payoutBody, provision, type Fixture } from './provision.js';
import { onEachStore, type BenchStore, type RunsOnEachStore } from './stores.js';

export interface LatencyFigures {
  events: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface WebhookLatencyRun {
  store: 'sqlite' | 'postgres';
  /** Payouts of the fast merchant per phase, created at `ratePerSec` (four events each). */
  payouts: number;
  ratePerSec: number;
  alone: LatencyFigures;
  withHanging: LatencyFigures & {
    /** The hanging merchant's events not yet dispatched when the phase started and when it ended. */
    hangingPendingAtStart: number;
    hangingPendingAtEnd: number;
    /** The most deliveries the hanging receiver held at once (the per-target bound). */
    hangingHeldMax: number;
  };
  /** p99 with the hanging receiver minus p99 alone. */
  p99DifferenceMs: number;
  /** Events delivered more than once to the fast receiver (must be 0). */
  duplicates: number;
  aimMs: number;
}

export type WebhookLatencyResult = RunsOnEachStore<WebhookLatencyRun>;

const payouts = () => Number(process.env.BENCH_WEBHOOK_PAYOUTS ?? 200);
const rate = () => Number(process.env.BENCH_WEBHOOK_RATE ?? 20);
const hangingEvents = () => Number(process.env.BENCH_WEBHOOK_HANGING_EVENTS ?? 1000);
const statesPerPayout = 4; // created, processing, sent, completed on the sandbox rail's completing account
const aimMs = 1000;

/** Creates `count` payouts at `perSec`, each answered 202, without waiting for one before the next. */
async function paced(baseUrl: string, fixture: Fixture, count: number, perSec: number): Promise<void> {
  const started = performance.now();
  const answers: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSec;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    answers.push(
      fetch(`${baseUrl}/v1/payouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' },
        body: payoutBody(fixture.payeeId),
      }).then(async (r) => {
        if (r.status !== 202) throw new Error(`creating a payout answered ${r.status}: ${await r.text()}`);
      }),
    );
  }
  await Promise.all(answers);
}

function figures(latenciesMs: number[]): LatencyFigures {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { events: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1] ?? 0 };
}

/** One phase: the fast merchant's paced payouts, until all their events have arrived. */
async function measure(baseUrl: string, fixture: Fixture, receiver: LatencyReceiver): Promise<LatencyFigures> {
  receiver.reset();
  await paced(baseUrl, fixture, payouts(), rate());
  await receiver.waitFor(payouts() * statesPerPayout, 60_000);
  return figures(receiver.latenciesMs);
}

async function runOn(store: BenchStore): Promise<WebhookLatencyRun> {
  const fastMerchant = await createMerchant(store.url, 'Fast Receiver Co');
  const hangingMerchant = await createMerchant(store.url, 'Hanging Receiver Co');
  const fast = await startLatencyReceiver();
  let hanging: HangingReceiver | undefined;
  const service = await startService({ DATABASE_URL: store.url, SANDBOX_STEP_MS: '0' });
  const reader = await openStore(store.url, { migrate: false, poolSize: 1 });
  const pendingOfHanging = async () => {
    const rows = await reader.db
      .selectFrom('events')
      .select('id')
      .where('merchant_id', '=', hangingMerchant.merchantId)
      .where('dispatched_at', 'is', null)
      .execute();
    return rows.length;
  };
  try {
    const fastFixture = await provision(service.url, fastMerchant, { webhookUrl: fast.url });
    // Warm-up: the same load once, unmeasured, so both phases run on code the JIT has optimised.
    await measure(service.url, fastFixture, fast);
    const alone = await measure(service.url, fastFixture, fast);

    hanging = await startHangingReceiver();
    const hangingFixture = await provision(service.url, hangingMerchant, { webhookUrl: hanging.url });
    // Its backlog: all the events of enough payouts written (the engine runs at full speed) before the phase
    // starts, a tenth more than asked so that about as many are still pending when it ends.
    await paced(service.url, hangingFixture, Math.ceil((hangingEvents() * 1.1) / statesPerPayout), 500);
    const deadline = Date.now() + 60_000;
    while ((await pendingOfHanging()) < hangingEvents() || hanging.open() === 0) {
      if (Date.now() > deadline) throw new Error(`the hanging merchant's ${hangingEvents()} events were not pending within 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const hangingPendingAtStart = await pendingOfHanging();
    const withHanging = await measure(service.url, fastFixture, fast);
    const hangingPendingAtEnd = await pendingOfHanging();
    return {
      store: store.kind,
      payouts: payouts(),
      ratePerSec: rate(),
      alone,
      withHanging: { ...withHanging, hangingPendingAtStart, hangingPendingAtEnd, hangingHeldMax: hanging.maxOpen() },
      p99DifferenceMs: withHanging.p99Ms - alone.p99Ms,
      duplicates: [...fast.seen.values()].filter((n) => n > 1).length,
      aimMs,
    };
  } finally {
    await hanging?.close(); // its held deliveries fail at once, so the service stops without waiting them out
    await service.stop();
    await reader.close();
    await fast.close();
  }
}

export function runWebhookLatency(): Promise<WebhookLatencyResult> {
  return onEachStore(runOn, (run) => {
    const { alone, withHanging: w } = run;
    return (
      `  ${run.store.padEnd(8)} fast receiver p99 ${alone.p99Ms} ms alone, ${w.p99Ms} ms beside a hanging receiver ` +
      `(${w.hangingPendingAtStart} → ${w.hangingPendingAtEnd} of its events pending, ${w.hangingHeldMax} held): ` +
      `${run.p99DifferenceMs >= 0 ? '+' : ''}${run.p99DifferenceMs} ms (p50 ${alone.p50Ms} / ${w.p50Ms} ms); ` +
      `duplicates ${run.duplicates}`
    );
  });
}
