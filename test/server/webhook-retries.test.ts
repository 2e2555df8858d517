// Opt-in retries over real HTTP, on each store, with the service's clock moved instead of waited for: a registration
// with `retries` whose receiver fails twice gets the event on the third attempt, each attempt in the delivery log;
// a plain registration gets it once; a 4xx other than 408/429 is final; and a due retry is sent by a service started
// after a restart (the schedule is stored).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { retrySchedule } from '../../server/domain/webhooks/webhook-dispatcher.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe.each(stores)('webhook retries on $name', (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  let service: RunningService;
  let clock = Date.now();
  const now = () => clock;

  beforeAll(async () => {
    const db = await kind.fresh();
    url = db.url;
    drop = db.drop;
    service = await startService(url, { sandboxStepMs: 0 }, { now });
  });
  afterAll(async () => {
    await service.stop();
    await drop();
  });

  const attempts = async (m: TestMerchant, id: string) =>
    (await unwrap(m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { PageSize: 100 } } }))).data
      .map((d) => ({ attempt: d.attempt, outcome: d.outcome, statusCode: d.statusCode }))
      .reverse();
  const settledAttempts = (m: TestMerchant, id: string, count: number) =>
    expect
      .poll(async () => (await attempts(m, id)).filter((a) => a.outcome !== 'sending').length, { timeout: 10_000, interval: 20 })
      .toBe(count);
  /** The stored schedule: the due time of each attempt waiting for a retry (none: nothing more will be sent). */
  const schedule = async (webhookId: string) =>
    (
      await service.services.store.db
        .selectFrom('webhook_deliveries')
        .select(['attempt', 'retry_at'])
        .where('webhook_id', '=', webhookId)
        .where('retry_at', 'is not', null)
        .execute()
    ).map((r) => [Number(r.attempt), Number(r.retry_at)]);
  const payout = async (m: TestMerchant) => {
    const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
    await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount('000123456789') }));
    await unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 10, Currency: 'USD' } }));
  };

  it('tries an opted-in registration again until its receiver answers 2xx; a plain one gets the event once', async () => {
    const retrying: WebhookReceiver = await startReceiver();
    const plain: WebhookReceiver = await startReceiver();
    try {
      const m = await newMerchant(service);
      const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: retrying.url, events: ['payout.created'], retries: true } }));
      expect(hook.retries).toBe(true);
      const once = await unwrap(m.a.POST('/v1/webhooks', { body: { url: plain.url, events: ['payout.created'] } }));
      expect(once.retries).toBe(false);
      retrying.respondWith(503);
      plain.respondWith(503);
      await payout(m);
      const failedAt = clock;
      await settledAttempts(m, hook.id, 1);
      await settledAttempts(m, once.id, 1);
      // Only the opted-in registration's failure is scheduled, after the first pause of the service's clock.
      expect(await schedule(hook.id)).toEqual([[1, failedAt + retrySchedule[0]!]]);
      expect(await schedule(once.id)).toEqual([]);

      clock += retrySchedule[0]!;
      await settledAttempts(m, hook.id, 2);
      retrying.respondWith(200);
      clock += retrySchedule[1]!;
      await settledAttempts(m, hook.id, 3);
      expect(await attempts(m, hook.id)).toEqual([
        { attempt: 1, outcome: 'failed', statusCode: 503 },
        { attempt: 2, outcome: 'failed', statusCode: 503 },
        { attempt: 3, outcome: 'delivered', statusCode: 200 },
      ]);
      const ids = retrying.deliveries.map((d) => d.headers['webhook-id']);
      expect(new Set(ids).size).toBe(1);
      expect(new Set(retrying.deliveries.map((d) => d.body)).size).toBe(1);

      // Delivered: the schedule ended. The plain registration got the event once.
      expect(await schedule(hook.id)).toEqual([]);
      expect(retrying.deliveries).toHaveLength(3);
      expect(plain.deliveries).toHaveLength(1);
      expect(await attempts(m, once.id)).toEqual([{ attempt: 1, outcome: 'failed', statusCode: 503 }]);
    } finally {
      await retrying.close();
      await plain.close();
    }
  });

  it('does not try again after a 4xx other than 408 and 429', async () => {
    const receiver = await startReceiver();
    try {
      const m = await newMerchant(service);
      const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: receiver.url, events: ['payout.created'], retries: true } }));
      receiver.respondWith(400);
      await payout(m);
      await settledAttempts(m, hook.id, 1);
      // Recorded without a next attempt, in the same commit as the outcome: nothing is due, ever.
      expect(await schedule(hook.id)).toEqual([]);
      expect(receiver.deliveries).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('keeps the schedule across a restart', async () => {
    const receiver = await startReceiver();
    try {
      const m = await newMerchant(service);
      const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: receiver.url, events: ['payout.created'], retries: true } }));
      receiver.respondWith(500);
      await payout(m);
      await settledAttempts(m, hook.id, 1);
      await service.stop();
      receiver.respondWith(200);
      clock += retrySchedule[0]!;
      service = await startService(url, { sandboxStepMs: 0 }, { now });
      await receiver.waitFor(2);
      // The merchant's client knew the stopped service's address: read the log from the store.
      const outcomes = () =>
        service.services.store.db
          .selectFrom('webhook_deliveries')
          .select(['attempt', 'outcome'])
          .where('webhook_id', '=', hook.id)
          .orderBy('attempt')
          .execute();
      await expect
        .poll(async () => (await outcomes()).map((a) => [Number(a.attempt), a.outcome]), { timeout: 10_000, interval: 20 })
        .toEqual([
          [1, 'failed'],
          [2, 'delivered'],
        ]);
      expect(receiver.deliveries.map((d) => d.headers['webhook-id'])).toEqual([
        receiver.deliveries[0]!.headers['webhook-id'],
        receiver.deliveries[0]!.headers['webhook-id'],
      ]);
    } finally {
      await receiver.close();
    }
  });
});
