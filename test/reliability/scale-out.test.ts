// Scale out: several worker processes (each runs a payout engine and a webhook dispatcher) on one store,
// SANDBOX_STEP_MS=0, 1,000 payouts created through every HTTP process in turn. On PostgreSQL, two instances of
// `npm start` (RUN_WORKERS=true, each its HTTP processes and a worker process) on one fresh database; on SQLite,
// one `npm start` with two HTTP and two worker processes sharing the file (WORKER_CONCURRENCY=2). Proves, by
// reading the database directly and the receiver's log: each transition happened exactly once (one events row
// per payout and state, each payout's states in order), each webhook delivery happened exactly once (one
// webhook_deliveries row per event and registration, delivered, and the receiver got each (payout, state) once),
// all 1,000 completed, and at least two worker processes did part of the delivering (so they really competed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { bankAccount, individual } from '../support/merchants.js';
import { unsettled } from '../support/settled-events.js';
import { postgresAvailable, stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createMerchantWithCli } from './admin-cli.js';
import { deliveredEvents, duplicates, statesByPayout } from './delivered-events.js';
import { startPayoutLoad } from './payout-load.js';
import { killAll, startServerProcess, type ServerProcess } from './server-process.js';
import { waitUntil } from './wait-until.js';

const payoutCount = 1000;
const expectedStates = ['created', 'processing', 'sent', 'completed'];
const shapes = stores.map((kind) =>
  kind.name === 'postgres'
    ? {
        kind,
        title: 'scale out: two instances on one PostgreSQL, each with its HTTP and worker processes',
        instances: 2,
        env: { WORKER_CONCURRENCY: '1' },
      }
    : {
        kind,
        title: 'scale out: two HTTP and two worker processes on one SQLite file',
        instances: 1,
        env: { WEB_CONCURRENCY: '2', WORKER_CONCURRENCY: '2' },
      },
);
if (!postgresAvailable) console.log('scale out on PostgreSQL skipped: set TEST_DATABASE_URL');

describe.each(shapes)('$title', (shape) => {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let receiver: WebhookReceiver | undefined;
  let store: Store | undefined;

  beforeAll(async () => {
    db = await shape.kind.fresh();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await killAll();
    await store?.close();
    await receiver?.close();
    await db?.drop();
  });

  it(`processes ${payoutCount} payouts with each transition and each webhook exactly once`, { timeout: 150_000 }, async () => {
    // Instances start at once, as a deployment would start them: they race to migrate and to create the signing key
    // (signing-key-race.test.ts makes that race deterministic).
    // LOG_LEVEL=info so that each worker process's 'webhook delivery' lines can be counted.
    // The receiver runs in this test's process, beside four server processes on the same cores: on a loaded machine
    // it can take longer than the default 5 s to answer a burst, and a delivery that times out is failed, never
    // resent (at most once). What is proven here is once, not how fast, so the receiver gets 30 s.
    const env = {
      DATABASE_URL: db!.url,
      SANDBOX_STEP_MS: '0',
      RUN_WORKERS: 'true',
      LOG_LEVEL: 'info',
      WEBHOOK_TIMEOUT_MS: '30000',
      ...shape.env,
    };
    const instances: ServerProcess[] = await Promise.all(Array.from({ length: shape.instances }, () => startServerProcess(env)));
    const merchant = await createMerchantWithCli(db!.url, 'Scale Out Co');
    // Each client takes its token from the other instance, as behind a load balancer: both must accept both's
    // tokens. With one instance, its HTTP processes take turns with each new connection.
    const [a, b] = [0, 1].map((i) =>
      createMerchantClient({
        baseUrl: instances[i % instances.length]!.baseUrl,
        authUrl: instances[(i + 1) % instances.length]!.baseUrl,
        credentials: merchant,
      }),
    );
    await unwrap(a!.POST('/v1/webhooks', { body: { url: receiver!.url } }));
    const payee = await unwrap(b!.POST('/v1/payees', { body: individual }));
    await unwrap(a!.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount('000123456789') }));

    const result = await startPayoutLoad({
      clients: [a!, b!],
      body: (i) => ({ PayeeId: payee.id, Amount: 1 + (i % 500), Currency: 'USD', Description: `scale out ${i}` }),
      concurrency: 16,
      maxPayouts: payoutCount,
      maxMs: 90_000,
    }).done;
    expect({ accepted: result.accepted.length, connectionErrors: result.connectionErrors, otherAnswers: result.otherAnswers }).toEqual({
      accepted: payoutCount,
      connectionErrors: 0,
      otherAnswers: {},
    });

    store = await openStore(db!.url, { migrate: false, poolSize: 2 });
    const q = store.db;
    const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
    await waitUntil(
      `all ${payoutCount} payouts complete`,
      async () =>
        (await count(
          q
            .selectFrom('payouts')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'completed')
            .executeTakeFirstOrThrow(),
        )) === payoutCount,
      60_000,
      200,
    );
    const eventCount = payoutCount * expectedStates.length;
    await waitUntil(
      `all ${eventCount} deliveries are recorded as delivered`,
      async () =>
        (await count(
          q
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('outcome', '=', 'delivered')
            .executeTakeFirstOrThrow(),
        )) >= eventCount &&
        (await count(
          q
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('dispatched_at', 'is', null)
            .executeTakeFirstOrThrow(),
        )) === 0,
      60_000,
      200,
    );
    await receiver!.waitFor(eventCount, undefined, 10_000);
    // Settled everywhere before looking for a second copy of anything: every event dispatched, every delivery's
    // answer recorded, and each worker process's log line of every POST it made read here.
    const deliveredBy = () => {
      const byProcess = new Map<number, number>();
      for (const entry of instances.flatMap((instance) => instance.entries))
        if (entry.msg === 'webhook delivery') byProcess.set(Number(entry.pid), (byProcess.get(Number(entry.pid)) ?? 0) + 1);
      return [...byProcess.values()];
    };
    const sum = (counts: number[]) => counts.reduce((x, y) => x + y, 0);
    await waitUntil(
      'every event is settled in every process',
      async () => (await unsettled(store!)).length === 0 && sum(deliveredBy()) >= eventCount,
      30_000,
      100,
    );

    // Transitions: one event row per (payout, state), each payout's states in order.
    const payouts = await q.selectFrom('payouts').select(['reference', 'status']).execute();
    expect(payouts).toHaveLength(payoutCount);
    expect(new Set(payouts.map((p) => p.reference))).toEqual(new Set(result.accepted.map((p) => p.reference)));
    const repeated = await q
      .selectFrom('events')
      .select(['subject', 'type', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['subject', 'type'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(repeated).toEqual([]);
    const events = await q.selectFrom('events').select(['id', 'subject', 'type']).orderBy('id').execute();
    expect(events).toHaveLength(eventCount);
    const storedStates = statesByPayout(events.map((e) => ({ payout: e.subject, state: e.type.replace(/^payout\./, '') })));
    const outOfSequence = [...storedStates].filter(([, states]) => states.join() !== expectedStates.join());
    expect(outOfSequence).toEqual([]);

    // Deliveries: one row per (event, registration), every one delivered, every event covered.
    const deliveries = await q.selectFrom('webhook_deliveries').select(['event_id', 'webhook_id', 'outcome']).execute();
    expect(deliveries).toHaveLength(eventCount);
    expect(new Set(deliveries.map((d) => `${d.event_id}:${d.webhook_id}`)).size).toBe(eventCount);
    expect(new Set(deliveries.map((d) => Number(d.event_id)))).toEqual(new Set(events.map((e) => Number(e.id))));
    expect(deliveries.filter((d) => d.outcome !== 'delivered')).toEqual([]);

    // The receiver: each (payout, state) exactly once.
    const received = deliveredEvents(receiver!.deliveries);
    expect(duplicates(received)).toEqual([]);
    expect(received).toHaveLength(eventCount);
    const receivedStates = statesByPayout(received);
    expect(receivedStates.size).toBe(payoutCount);
    for (const [reference, states] of receivedStates) expect([...states].sort(), reference).toEqual([...expectedStates].sort());

    // Two worker processes (or more) delivered: the exactly-once above held while they competed for the same rows.
    const sentBy = deliveredBy();
    expect(sentBy.length, `deliveries per worker process: ${sentBy}`).toBeGreaterThanOrEqual(2);
    expect(sum(sentBy)).toBe(eventCount);
    expect(instances.flatMap((instance) => instance.failures)).toEqual([]);
    console.log(
      `scale out on ${shape.kind.name}: ${payoutCount} payouts created in ${result.elapsedMs} ms through ${shape.instances} ` +
        `instance(s); ${events.length} events, ${received.length} deliveries (by worker process: ${sentBy.join(', ')})`,
    );
  });
});
