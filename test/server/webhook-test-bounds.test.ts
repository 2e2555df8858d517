// Test deliveries (`testWebhook`) are bounded like real ones, over real HTTP on each store: a burst of tests to a
// receiver that never answers holds at most the per-target bound of connections, the rest are refused 429 with
// Retry-After and store nothing; and only a registration's newest test events are kept, with their deliveries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHangingReceiver } from '../../bench/hanging-receiver.js';
import { unwrap } from '../../client/problem-error.js';
import { keptTestEvents } from '../../server/domain/webhooks/webhook-deliveries.js';
import { newMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

/** Longer than the test takes even on a busy machine: no held delivery may time out and free its slot early. */
const webhookTimeoutMs = 20_000;
const burst = 100;

describe.each(stores)('test deliveries on $name', (kind) => {
  const service = useService(kind, { webhookTimeoutMs });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  const testEventCount = async (webhookId: string) =>
    Number(
      (
        await service.services.store.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('type', '=', 'webhook.test')
          .where('subject', '=', webhookId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('holds a burst of tests to the per-target bound: the rest are 429 with Retry-After, and nothing of theirs is stored', async () => {
    const hanging = await startHangingReceiver();
    try {
      const m = await newMerchant(service);
      const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: hanging.url } }));
      const { perTarget } = service.services.dispatcher.limits;
      expect(burst).toBeGreaterThan(perTarget);

      const answers: { status: number; retryAfter: string | null; type?: string }[] = [];
      const requests = Array.from({ length: burst }, () =>
        m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }).then((r) => {
          answers.push({ status: r.response.status, retryAfter: r.response.headers.get('Retry-After'), type: r.error?.type });
          return r;
        }),
      );
      // Every test either reached the receiver (and hangs there) or was answered already.
      await expect.poll(() => hanging.received() + answers.length, { timeout: 15_000, interval: 20 }).toBe(burst);
      expect(hanging.received()).toBe(perTarget);
      expect(hanging.maxOpen()).toBe(perTarget);
      expect(answers).toHaveLength(burst - perTarget);
      for (const answer of answers)
        expect(answer).toEqual({
          status: 429,
          retryAfter: String(webhookTimeoutMs / 1000),
          type: 'https://payouts.example/problems/rate-limited',
        });
      // Only the tests that were sent wrote an event.
      expect(await testEventCount(hook.id)).toBe(perTarget);

      // The held tests end when the receiver goes (a failed outcome each), and their slots are free again.
      await hanging.close();
      const held = (await Promise.all(requests)).filter((r) => r.response.status === 200);
      expect(held).toHaveLength(perTarget);
      for (const r of held) expect(r.data).toMatchObject({ outcome: 'failed', statusCode: null });
      await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { url: receiver.url } }));
      expect(await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }))).toMatchObject({
        outcome: 'delivered',
      });
    } finally {
      await hanging.close();
    }
  });

  it(`keeps only a registration's ${keptTestEvents} newest test events, with their deliveries`, { timeout: 60_000 }, async () => {
    const m = await newMerchant(service);
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/kept` } }));
    const other = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/other` } }));
    const otherTest = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: other.id } } }));
    const test = () => unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    const sent: string[] = [];
    // In batches, each under the per-target bound: the bound is not what this test is about.
    for (let i = 0; i < keptTestEvents + 10; i += 10)
      sent.push(...(await Promise.all(Array.from({ length: 10 }, test))).map((d) => d.eventId));
    expect(await testEventCount(hook.id)).toBe(keptTestEvents);

    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await unwrap(
        m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { PageSize: 100, Cursor: cursor } } }),
      );
      listed.push(...page.data.map((d) => d.eventId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(listed).toHaveLength(keptTestEvents);
    // The oldest are gone from the events API as well; the newest and another registration's test stay.
    const kept = new Set(listed);
    const dropped = sent.filter((id) => !kept.has(id));
    expect(dropped).toHaveLength(sent.length - keptTestEvents);
    for (const eventId of dropped.slice(0, 3))
      expect((await m.a.GET('/v1/events/{eventId}', { params: { path: { eventId } } })).response.status).toBe(404);
    expect((await m.a.GET('/v1/events/{eventId}', { params: { path: { eventId: sent.at(-1)! } } })).response.status).toBe(200);
    expect((await m.a.GET('/v1/events/{eventId}', { params: { path: { eventId: otherTest.eventId } } })).response.status).toBe(200);
  });
});
