// Crash: the real server runs as a child process (as `npm start` runs it, in one process and as a primary with
// its HTTP and worker processes) and is SIGKILLed twice under a
// steady payout load, each time restarted on the same store and port while the load keeps going. Proves,
// on SQLite and on PostgreSQL: every payout the service accepted (202) is still there and reaches the
// final state its test account decides; each payout's events in the store are exactly its expected
// sequence; no webhook event is delivered twice. The seed allows at most once: a delivery in flight at the
// kill may be lost (the dispatcher claims before it sends), so the test asserts that every event the
// receiver did not get is one whose delivery was claimed and whose outcome was never recorded (a process
// died in between), and reports how many were lost; and that the events API still lists every one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { eachEvent } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { unsettled } from '../support/settled-events.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createMerchantWithCli } from './admin-cli.js';
import { deliveredEvents, duplicates, isSubsequence, statesByPayout } from './delivered-events.js';
import { accountOf, accounts, expectedStates, outcomePayees, statusesOf } from './payout-outcomes.js';
import { startPayoutLoad, type PayoutLoad } from './payout-load.js';
import { killAll, startServerProcess } from './server-process.js';
import { waitUntil } from './wait-until.js';

const crashes = 2;
/** Payouts accepted between one (re)start and the next kill: the load is well under way when it dies. */
const acceptedBetweenKills = 150;

// npm start's shapes: one process doing everything, and a primary with two HTTP processes and a worker process
// (SIGKILL to the primary takes its processes down with it, as a machine's crash would).
const shapes = stores.flatMap((kind) => [
  { kind, name: `${kind.name}, one process`, env: { WEB_CONCURRENCY: '1' } },
  { kind, name: `${kind.name}, two HTTP processes and a worker process`, env: { WEB_CONCURRENCY: '2', WORKER_CONCURRENCY: '1' } },
]);

describe.each(shapes)('crash and restart on $name', ({ kind, name, env: shape }) => {
  let db: Awaited<ReturnType<typeof kind.fresh>> | undefined;
  let receiver: WebhookReceiver | undefined;
  let store: Store | undefined;
  let load: PayoutLoad | undefined;

  beforeAll(async () => {
    db = await kind.fresh();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await load?.stop(); // ends the load at once if the test failed during it
    await killAll();
    await store?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('keeps and finishes every accepted payout and delivers no event twice', { timeout: 150_000 }, async () => {
    const env = { DATABASE_URL: db!.url, SANDBOX_STEP_MS: '50', ...shape };
    let server = await startServerProcess(env);
    const merchant = await createMerchantWithCli(db!.url, 'Crash Test Co');
    // No retries of the client's own: the load retries itself (payout-load.ts), and counts the attempts that found
    // no server; a restart is quick enough now for the client's backoff to hide every one of them.
    const client = createMerchantClient({ baseUrl: server.baseUrl, credentials: merchant, maxRetries: 0 });
    await unwrap(client.POST('/v1/webhooks', { body: { url: receiver!.url } }));
    const payeeIds = await outcomePayees(client);

    load = startPayoutLoad({
      clients: [client],
      body: (i) => ({ PayeeId: payeeIds[i % accounts.length]!, Amount: 1 + (i % 500), Currency: 'USD', Description: `crash load ${i}` }),
      concurrency: 4,
      maxPayouts: 20_000,
      maxMs: 60_000,
    });
    const downtimesMs: number[] = [];
    const failures: string[][] = [];
    const awaitAccepted = async (more: number, what: string) => {
      const target = load!.accepted.length + more;
      await waitUntil(`${target} payouts are accepted ${what}`, async () => load!.accepted.length >= target, 30_000, 10);
    };
    let lastKilledAt = 0;
    for (let crash = 0; crash < crashes; crash++) {
      await awaitAccepted(acceptedBetweenKills, `before kill ${crash + 1}`);
      await server.kill('SIGKILL');
      failures.push(server.failures);
      lastKilledAt = Date.now();
      server = await startServerProcess(env, server.port);
      downtimesMs.push(Date.now() - lastKilledAt);
    }
    await awaitAccepted(acceptedBetweenKills, 'by the restarted server'); // the load goes on against it
    const result = await load.stop();

    // The load ran through the crashes: some requests found no server, none got a wrong answer.
    expect(result.otherAnswers).toEqual({});
    expect(result.connectionErrors).toBeGreaterThan(0);
    expect(result.accepted.length).toBeGreaterThan(crashes * acceptedBetweenKills);

    store = await openStore(db!.url, { migrate: false, poolSize: 2 });
    const q = store.db;
    await waitUntil(
      'every payout in the store is final',
      async () =>
        (await q.selectFrom('payouts').select('reference').where('status', 'not in', ['completed', 'failed']).limit(1).execute()).length ===
        0,
      60_000,
    );
    // Every accepted payout, read through the API of the restarted server: there, and final as its account says.
    const finals = await statusesOf(client, result.accepted);
    for (const p of result.accepted) expect(finals.get(p.reference), p.reference).toBe(accountOf(p.index).final);

    // Nothing more is sent once every event is dispatched and the restarted server has recorded the answers to
    // its deliveries (a claim from before the last kill may be a killed process's, never answered).
    await waitUntil(
      'every event is dispatched and every delivery of the restarted server has its answer recorded',
      async () => (await unsettled(store!, { claimedSince: lastKilledAt })).length === 0,
      60_000,
    );
    // In the store, each payout (accepted or not: a creation answered just before a kill may be lost to
    // the client only) has exactly its expected sequence of events.
    const payouts = await q
      .selectFrom('payouts')
      .innerJoin('payee_accounts', 'payee_accounts.id', 'payouts.account_id')
      .select(['payouts.reference', 'payee_accounts.account_number'])
      .execute();
    const events = (await q.selectFrom('events').select(['id', 'subject', 'type']).orderBy('id').execute()).map((e) => ({
      id: e.id,
      payout_reference: e.subject,
      state: e.type.replace(/^payout\./, ''),
    }));
    const deliveries = await q.selectFrom('webhook_deliveries').select(['event_id', 'outcome']).execute();
    const storedStates = statesByPayout(events.map((e) => ({ payout: e.payout_reference, state: e.state })));
    for (const { reference, account_number } of payouts)
      expect(storedStates.get(reference), reference).toEqual(expectedStates.get(account_number!));
    expect(payouts.length).toBeGreaterThanOrEqual(result.accepted.length);

    // Webhooks: nothing twice, nothing out of order, and a missing one only if it was in flight at a kill.
    const received = deliveredEvents(receiver!.deliveries);
    expect(duplicates(received)).toEqual([]);
    const receivedStates = statesByPayout(received);
    for (const [reference, states] of receivedStates)
      expect(isSubsequence(states, storedStates.get(reference) ?? []), `${reference}: ${states}`).toBe(true);
    const outcomeOf = new Map(deliveries.map((d) => [Number(d.event_id), d.outcome]));
    const got = new Set(received.map((e) => `${e.payout}:${e.state}`));
    const lost = events.filter((e) => !got.has(`${e.payout_reference}:${e.state}`));
    // Unrecorded deliveries stay `sending` until the dispatcher's sweep marks them `unknown` (after a minute).
    for (const e of lost)
      expect(['sending', 'unknown'], `event ${e.id} (${e.payout_reference} ${e.state}) was never delivered`).toContain(
        outcomeOf.get(Number(e.id)),
      );
    expect(deliveries).toHaveLength(events.length);
    expect(deliveries.filter((d) => !['delivered', 'sending', 'unknown'].includes(d.outcome))).toEqual([]);

    // Nothing is lost for good: the events API lists every event, the lost ones included, each with the body and
    // the id (the `webhook-id`) of its delivery where there was one.
    const listed = new Map<string, unknown>();
    for await (const e of eachEvent(client, { PageSize: 100 })) {
      const { payout_request_id, state } = e as { payout_request_id: string; state: string };
      listed.set(`${payout_request_id}:${state}`, e);
    }
    expect(listed.size).toBe(events.length);
    for (const e of lost) expect(listed.has(`${e.payout_reference}:${e.state}`), `${e.payout_reference} ${e.state}`).toBe(true);
    for (const d of receiver!.deliveries) {
      const body = JSON.parse(d.body) as { id: string; payout_request_id: string; state: string };
      expect(d.headers['webhook-id']).toBe(body.id);
      expect(listed.get(`${body.payout_request_id}:${body.state}`)).toEqual(body);
    }

    expect([...failures.flat(), ...server.failures]).toEqual([]);
    // Claimed and never recorded: sent or being sent when a process died (the receiver may have got some).
    const unrecordedAtKills = deliveries.filter((d) => d.outcome === 'sending' || d.outcome === 'unknown').length;
    console.log(
      `crash on ${name}: ${result.attempts} requests in ${result.elapsedMs} ms, ${result.accepted.length} accepted, ` +
        `${result.connectionErrors} without an answer; ${crashes} SIGKILLs, restarts took ${downtimesMs.join(' and ')} ms; ` +
        `${payouts.length} payouts stored, all final; ${events.length} events, ${received.length} delivered, ` +
        `${lost.length} lost (deliveries claimed but not recorded at a kill: ${unrecordedAtKills})`,
    );
  });
});
