// `redeliverWebhookDelivery` over real HTTP, on each store: a delivery's event is sent again, now, to the
// registration's current URL with the same body and `webhook-id`, signed afresh, and recorded as the next attempt
// in the delivery log (paged attempt by attempt); concurrent redeliveries number distinct attempts; it takes a
// delivery slot (429 with Retry-After and nothing stored when none is free); another merchant's, unknown or deleted
// ids answer 404 naming nothing of theirs; a disabled registration answers 409; a malformed delivery id 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHangingReceiver } from '../../bench/hanging-receiver.js';
import { unwrap } from '../../client/problem-error.js';
import { verifyWebhook } from '../../client/webhook-signature.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

/** Longer than the test takes even on a busy machine: no held delivery may time out and free its slot early. */
const webhookTimeoutMs = 20_000;

describe.each(stores)('webhook redelivery on $name', (kind) => {
  const service = useService(kind, { webhookTimeoutMs, sandboxStepMs: 0 });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  const redeliver = (m: TestMerchant, id: string, deliveryId: string) =>
    m.a.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } });
  const allDeliveries = async (m: TestMerchant, id: string, PageSize = 100) => {
    const listed = [];
    let cursor: string | undefined;
    do {
      const page = await unwrap(m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { PageSize, Cursor: cursor } } }));
      listed.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return listed;
  };

  it("sends a failed payout event again with the same webhook-id and body, fresh signatures, to the registration's current URL", async () => {
    const m = await newMerchant(service);
    const hook = await unwrap(
      m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/first`, signed: true, events: ['payout.created'] } }),
    );
    receiver.respondWith(500);
    const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
    await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount('000123456789') }));
    await unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 10, Currency: 'USD' } }));
    const [first] = await receiver.waitFor(1, (d) => d.path === '/first');
    await expect
      .poll(async () => (await allDeliveries(m, hook.id)).map((d) => d.outcome), { timeout: 10_000, interval: 20 })
      .toEqual(['failed']);
    const [failed] = await allDeliveries(m, hook.id);
    expect(failed).toMatchObject({ attempt: 1, statusCode: 500, eventType: 'payout.created' });

    // The receiver is fixed and moved; the redelivery goes to where the registration points now.
    receiver.respondWith(200);
    await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { url: `${receiver.url}/moved` } }));
    const again = await unwrap(redeliver(m, hook.id, failed!.eventId));
    expect(again).toMatchObject({
      eventId: failed!.eventId,
      eventType: 'payout.created',
      webhookId: hook.id,
      url: `${receiver.url}/moved`,
      attempt: 2,
      outcome: 'delivered',
      statusCode: 200,
      error: null,
    });
    const [moved] = await receiver.waitFor(1, (d) => d.path === '/moved');
    expect(moved!.headers['webhook-id']).toBe(failed!.eventId);
    expect(moved!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(moved!.body).toBe(first!.body);
    await verifyWebhook(
      hook.secret!,
      {
        id: String(moved!.headers['webhook-id']),
        timestamp: String(moved!.headers['webhook-timestamp']),
        signature: String(moved!.headers['webhook-signature']),
      },
      moved!.body,
    );

    // The log keeps both attempts, the newest first; the first attempt's record is unchanged.
    expect(await allDeliveries(m, hook.id)).toEqual([again, failed]);
    expect(receiver.deliveries.filter((d) => d.headers['webhook-id'] === failed!.eventId)).toHaveLength(2);
  });

  it('numbers concurrent redeliveries apart and pages through attempts without losing or repeating one', async () => {
    const m = await newMerchant(service);
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/pages` } }));
    const tests = [];
    for (let i = 0; i < 3; i += 1) tests.push(await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } })));
    const middle = tests[1]!.eventId;
    const redelivered = await Promise.all(Array.from({ length: 6 }, () => unwrap(redeliver(m, hook.id, middle))));
    expect(redelivered.map((d) => d.attempt).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(redelivered.every((d) => d.outcome === 'delivered')).toBe(true);
    expect(receiver.deliveries.filter((d) => d.headers['webhook-id'] === middle)).toHaveLength(7);

    const expected = [[tests[2]!.eventId, 1], ...[7, 6, 5, 4, 3, 2, 1].map((attempt) => [middle, attempt]), [tests[0]!.eventId, 1]];
    for (const pageSize of [1, 2, 3, 100])
      expect(
        (await allDeliveries(m, hook.id, pageSize)).map((d) => [d.eventId, d.attempt]),
        `page size ${pageSize}`,
      ).toEqual(expected);
  });

  it("answers 404 for another merchant's, an unknown, another registration's or a deleted delivery; 409 when disabled; 400 for a malformed id", async () => {
    const m = await newMerchant(service);
    const other = await newMerchant(service, 'Other');
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/refusals` } }));
    const sibling = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/sibling` } }));
    const { eventId } = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    const sent = () => receiver.deliveries.filter((d) => d.headers['webhook-id'] === eventId).length;
    const attempts = async () => (await allDeliveries(m, hook.id)).length;

    for (const [who, id, deliveryId] of [
      ['another merchant', hook.id, eventId],
      ['unknown event', hook.id, 'evt_01jd8x3ptb4c5d6e7f8g9h0jkm'],
      ['unknown registration', '3b2f6f4e-8c1d-4a7b-9e2f-5d6c7b8a9f01', eventId],
      ['another registration of the merchant', sibling.id, eventId],
    ] as const) {
      const answer = await redeliver(who === 'another merchant' ? other : m, id, deliveryId);
      expect(answer.response.status, who).toBe(404);
      expect(answer.error?.type, who).toBe('https://payouts.example/problems/not-found');
    }
    const malformed = await redeliver(m, hook.id, 'not-an-event');
    expect(malformed.response.status).toBe(400);
    expect(malformed.error?.errors?.map((e) => e.parameter)).toEqual(['deliveryId']);

    await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { enabled: false } }));
    const disabled = await redeliver(m, hook.id, eventId);
    expect(disabled.response.status).toBe(409);
    expect(disabled.error?.type).toBe('https://payouts.example/problems/conflict');
    expect(sent()).toBe(1);
    expect(await attempts()).toBe(1);

    await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { enabled: true } }));
    expect(await unwrap(redeliver(m, hook.id, eventId))).toMatchObject({ attempt: 2, outcome: 'delivered' });
    expect(sent()).toBe(2);

    await unwrap(m.a.DELETE('/v1/webhooks', { params: { query: { id: hook.id } } }));
    expect((await redeliver(m, hook.id, eventId)).response.status).toBe(404);
    expect(sent()).toBe(2);
  });

  it('takes a delivery slot: with none free it answers 429 with Retry-After and sends and stores nothing', async () => {
    const hanging = await startHangingReceiver();
    try {
      const m = await newMerchant(service);
      const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/slots` } }));
      const { eventId } = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
      await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { url: hanging.url } }));
      const { perTarget } = service.services.dispatcher.limits;
      const held = Array.from({ length: perTarget }, () => m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
      await expect.poll(() => hanging.received(), { timeout: 15_000, interval: 20 }).toBe(perTarget);

      const refused = await redeliver(m, hook.id, eventId);
      expect(refused.response.status).toBe(429);
      expect(refused.response.headers.get('Retry-After')).toBe(String(webhookTimeoutMs / 1000));
      expect(refused.error?.type).toBe('https://payouts.example/problems/rate-limited');
      expect(hanging.received()).toBe(perTarget);
      const attemptsOf = async () =>
        (
          await service.services.store.db.selectFrom('webhook_deliveries').select('attempt').where('webhook_id', '=', hook.id).execute()
        ).filter((r) => Number(r.attempt) > 1).length;
      expect(await attemptsOf()).toBe(0);

      // Once the held deliveries end, their slots are free again.
      await hanging.close();
      await Promise.all(held);
      await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { url: `${receiver.url}/slots` } }));
      expect(await unwrap(redeliver(m, hook.id, eventId))).toMatchObject({ attempt: 2, outcome: 'delivered' });
    } finally {
      await hanging.close();
    }
  });
});
