// Partner webhooks and events (groups C and E, `/finance/v1/webhooks`, `/finance/v1/events`) over real HTTP, on each
// store: a partner registers, receives and lists the `payment.*` events of the payments it requested, signed like a
// merchant's, and never another partner's; the merchant keeps receiving its own copies (other ids); unlinking the
// merchant stops the partner's new ones; the management operations work and are scoped to their partner (404 as
// unknown to anyone else, a merchant included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachPartnerEvent, eachPartnerWebhookDelivery } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import { constructEvent } from '../../client/webhooks.js';
import type { components } from '../../generated/partner/schema.js';
import { workersOf } from '../../server/domain/services.js';
import { newMerchant, type TestMerchant } from '../support/merchants.js';
import { documentedRequest, newPartner, type TestPartner } from '../support/partners.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

type S = components['schemas'];

/** A recipient of the merchant, made by the partner, and a payment request to it. */
async function recipientOf(p: TestPartner, merchantId: number): Promise<number> {
  const recipient = await unwrap(
    p.c.POST('/finance/v1/recipient-ach', {
      body: { ...documentedRequest<S['AchRecipientRequest']>('partner', '/finance/v1/recipient-ach', 'individual'), merchantId },
    }),
  );
  return recipient.id;
}
const paymentRequest = (payeeId: number, merchantId: number, amount = 25): S['PaymentRequest'] => ({
  payeeId,
  amount,
  currency: 'USD',
  paymentMethodType: 'STANDARD',
  description: 'November commission',
  merchantId,
});
const paymentOf = (body: string): number | undefined => (JSON.parse(body) as { payment?: { paymentId: number } }).payment?.paymentId;

describe.each(stores)('partner webhooks and events on $name', (kind) => {
  let service: RunningService;
  let drop: () => Promise<void>;
  let receiver: WebhookReceiver;
  let acme: TestMerchant;
  let globex: TestMerchant;
  /** Linked to Acme. */
  let first: TestPartner;
  /** Linked to Acme and Globex; requests payments for Globex only. */
  let second: TestPartner;

  beforeAll(async () => {
    const db = await kind.fresh();
    drop = db.drop;
    service = await startService(db.url, { sandboxStepMs: 0 });
    receiver = await startReceiver();
    acme = await newMerchant(service, 'Acme');
    globex = await newMerchant(service, 'Globex');
    first = await newPartner(service, [acme.merchantId], 'First');
    second = await newPartner(service, [acme.merchantId, globex.merchantId], 'Second');
  });
  afterAll(async () => {
    await service.stop();
    await receiver.close();
    await drop();
  });

  it("delivers and lists a partner's payment events to it alone, signed, and the merchant's own copies to the merchant", async () => {
    const firstHook = await unwrap(first.c.POST('/finance/v1/webhooks', { body: { url: `${receiver.url}/first`, signed: true } }));
    expect(firstHook).toMatchObject({ signed: true, enabled: true, retries: false });
    expect(firstHook.events).toEqual([
      'noc.received',
      'payment.created',
      'payment.processing',
      'payment.sent',
      'payment.completed',
      'payment.failed',
      'payment.cancelled',
      'payment.returned',
    ]);
    // Group E's client reaches the same operation.
    const secondHook = await unwrap(
      second.e.POST('/finance/v1/webhooks', { body: { url: `${receiver.url}/second`, events: ['payment.completed'] } }),
    );
    await unwrap(acme.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/acme`, events: ['payment.completed'] } }));

    const mine = await unwrap(
      first.c.POST('/finance/v1/payment_request', { body: paymentRequest(await recipientOf(first, acme.merchantId), acme.merchantId) }),
    );
    const theirs = await unwrap(
      second.e.POST('/finance/v1/payment_request', {
        body: paymentRequest(await recipientOf(second, globex.merchantId), globex.merchantId),
      }),
    );
    const completedAt = (path: string, paymentId: number) =>
      receiver.waitFor(1, (d) => d.path === path && d.body.includes('"payment.completed"') && paymentOf(d.body) === paymentId);
    const [toFirst] = await completedAt('/first', mine.paymentId);
    const [toSecond] = await completedAt('/second', theirs.paymentId);
    const [toAcme] = await completedAt('/acme', mine.paymentId);

    // Signed by the registration's secret, with the event's id in webhook-id.
    const event = await constructEvent(toFirst!.body, toFirst!.headers as Record<string, string>, firstHook.secret!);
    expect(event).toMatchObject({ type: 'payment.completed', payment: { paymentId: mine.paymentId, status: 'completed' } });
    expect(toFirst!.headers['webhook-id']).toBe(event.id);
    expect(toSecond!.headers['webhook-signature']).toBeUndefined();
    // The merchant's copy: the same body but its own id.
    const merchantCopy = JSON.parse(toAcme!.body);
    expect(merchantCopy.id).not.toBe(event.id);
    expect({ ...merchantCopy, id: event.id }).toEqual(JSON.parse(toFirst!.body));

    // Each partner received only the events of its own payments; the second partner, linked to Acme too, nothing of the first's.
    await receiver.waitFor(4, (d) => d.path === '/first' && paymentOf(d.body) === mine.paymentId);
    expect(receiver.deliveries.filter((d) => d.path === '/first').every((d) => paymentOf(d.body) === mine.paymentId)).toBe(true);
    expect(receiver.deliveries.filter((d) => d.path === '/second').every((d) => paymentOf(d.body) === theirs.paymentId)).toBe(true);

    // Listed with the same ids, newest first; never the other partner's, and not the merchant's copies.
    const listed: S['PartnerEvent'][] = [];
    for await (const e of eachPartnerEvent(first.c)) listed.push(e);
    expect(listed.map((e) => e.type)).toEqual(['payment.completed', 'payment.sent', 'payment.processing', 'payment.created']);
    expect(listed.every((e) => paymentOf(JSON.stringify(e)) === mine.paymentId)).toBe(true);
    expect(listed).toContainEqual(JSON.parse(toFirst!.body));
    const filtered = await unwrap(first.e.GET('/finance/v1/events', { params: { query: { Type: ['payment.completed'], PageSize: 1 } } }));
    expect(filtered).toEqual({ data: [JSON.parse(toFirst!.body)], nextCursor: null });
    expect(await unwrap(first.c.GET('/finance/v1/events/{eventId}', { params: { path: { eventId: event.id } } }))).toEqual(
      JSON.parse(toFirst!.body),
    );
    // Another partner's event, and the merchant's copy, are unknown to it; the merchant does not see the partner's.
    const theirEvent = JSON.parse(toSecond!.body).id as string;
    expect((await first.c.GET('/finance/v1/events/{eventId}', { params: { path: { eventId: theirEvent } } })).response.status).toBe(404);
    expect((await first.c.GET('/finance/v1/events/{eventId}', { params: { path: { eventId: merchantCopy.id } } })).response.status).toBe(
      404,
    );
    expect((await acme.a.GET('/v1/events/{eventId}', { params: { path: { eventId: event.id } } })).response.status).toBe(404);
    expect((await acme.a.GET('/v1/events/{eventId}', { params: { path: { eventId: merchantCopy.id } } })).response.status).toBe(200);
    const merchantEvents = await unwrap(acme.a.GET('/v1/events', { params: { query: { Type: ['payment.completed'] } } }));
    expect(merchantEvents.data.map((e) => e.id)).toEqual([merchantCopy.id]);
    expect(
      (await unwrap(second.c.GET('/finance/v1/events', {}))).data.every((e) => paymentOf(JSON.stringify(e)) === theirs.paymentId),
    ).toBe(true);

    // The deliveries are listed under the registration, and only for its partner.
    const deliveries = [];
    for await (const d of eachPartnerWebhookDelivery(first.c, firstHook.id)) deliveries.push(d);
    expect(deliveries.map((d) => d.eventType)).toEqual(['payment.completed', 'payment.sent', 'payment.processing', 'payment.created']);
    expect(deliveries[0]).toMatchObject({ eventId: event.id, webhookId: firstHook.id, attempt: 1, outcome: 'delivered', statusCode: 200 });
    const foreign = await second.c.GET('/finance/v1/webhooks/{id}/deliveries', { params: { path: { id: firstHook.id } } });
    expect(foreign.response.status).toBe(404);
    expect(secondHook.events).toEqual(['payment.completed']);

    // A notification of change for its payment reaches the partner too (and the merchant, which selected none of it).
    await unwrap(
      first.c.POST('/finance/v1/simulations/payment_request/{paymentId}/notification-of-change', {
        params: { path: { paymentId: mine.paymentId } },
        body: { changeCode: 'C01', correctedData: { accountNumber: '000987654321' } },
      }),
    );
    const [noc] = await receiver.waitFor(1, (d) => d.path === '/first' && d.body.includes('"noc.received"'));
    expect(JSON.parse(noc!.body)).toMatchObject({
      type: 'noc.received',
      payment: { paymentId: mine.paymentId, notificationOfChange: { changeCode: 'C01' } },
    });
    const latest = await unwrap(first.c.GET('/finance/v1/events', { params: { query: { PageSize: 1 } } }));
    expect(latest.data).toEqual([JSON.parse(noc!.body)]);
    expect((await unwrap(acme.a.GET('/v1/events', { params: { query: { Type: ['noc.received'] } } }))).data).toHaveLength(1);
    expect(receiver.deliveries.some((d) => d.path === '/second' && d.body.includes('"noc.received"'))).toBe(false);
  });

  it('manages registrations: get, update, rotate, test, redeliver, delete, each scoped to its partner', async () => {
    const key = crypto.randomUUID();
    const body = { url: `${receiver.url}/managed`, events: ['payment.completed' as const], signed: true };
    const made = await first.c.POST('/finance/v1/webhooks', { body, headers: { 'Idempotency-Key': key } });
    const hook = await unwrap(made);
    expect(made.response.status).toBe(201);
    expect(made.response.headers.get('location')).toBe(`/finance/v1/webhooks/${hook.id}`);
    // The same key and body replay the registration (with its secret); another body is refused.
    const replay = await first.c.POST('/finance/v1/webhooks', { body, headers: { 'Idempotency-Key': key } });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(await unwrap(replay)).toEqual(hook);
    const conflict = await first.c.POST('/finance/v1/webhooks', { body: { ...body, signed: false }, headers: { 'Idempotency-Key': key } });
    expect(conflict.response.status).toBe(409);
    // The same key is another partner's own: it makes that partner's registration.
    const elsewhere = await unwrap(second.c.POST('/finance/v1/webhooks', { body, headers: { 'Idempotency-Key': key } }));
    expect(elsewhere.id).not.toBe(hook.id);

    const path = { params: { path: { id: hook.id } } };
    const { secret: _secret, ...shown } = hook;
    expect(await unwrap(first.c.GET('/finance/v1/webhooks/{id}', path))).toEqual(shown);
    expect((await unwrap(first.e.GET('/finance/v1/webhooks', {}))).map((w) => w.id)).toContain(hook.id);
    expect((await unwrap(second.c.GET('/finance/v1/webhooks', {}))).map((w) => w.id)).not.toContain(hook.id);
    const updated = await unwrap(
      first.c.PATCH('/finance/v1/webhooks/{id}', { ...path, body: { events: ['payment.completed', 'payment.failed'], retries: true } }),
    );
    expect(updated).toMatchObject({ events: ['payment.completed', 'payment.failed'], retries: true });
    const rotated = await unwrap(first.c.POST('/finance/v1/webhooks/{id}/rotate-secret', path));
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.previousSecretExpiresOn).not.toBeNull();

    // A test event: delivered now, signed by both secrets, kept as the partner's event and delivery.
    const tested = await unwrap(first.c.POST('/finance/v1/webhooks/{id}/test', path));
    expect(tested).toMatchObject({ eventType: 'webhook.test', webhookId: hook.id, attempt: 1, outcome: 'delivered' });
    const [sent] = await receiver.waitFor(1, (d) => d.headers['webhook-id'] === tested.eventId);
    expect(String(sent!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    await constructEvent(sent!.body, sent!.headers as Record<string, string>, rotated.secret);
    expect(await unwrap(first.c.GET('/finance/v1/events/{eventId}', { params: { path: { eventId: tested.eventId } } }))).toMatchObject({
      type: 'webhook.test',
      webhook_id: hook.id,
    });
    const redeliver = { params: { path: { id: hook.id, deliveryId: tested.eventId } } };
    const again = await unwrap(first.c.POST('/finance/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', redeliver));
    expect(again).toMatchObject({ eventId: tested.eventId, attempt: 2, outcome: 'delivered' });
    const log = await unwrap(first.c.GET('/finance/v1/webhooks/{id}/deliveries', path));
    expect(log.data.map((d) => [d.eventId, d.attempt])).toEqual([
      [tested.eventId, 2],
      [tested.eventId, 1],
    ]);

    // To the other partner, the registration, its deliveries and its events are unknown: 404, and nothing changes.
    const statuses = await Promise.all([
      second.c.GET('/finance/v1/webhooks/{id}', path),
      second.c.PATCH('/finance/v1/webhooks/{id}', { ...path, body: { enabled: false } }),
      second.c.POST('/finance/v1/webhooks/{id}/rotate-secret', path),
      second.c.POST('/finance/v1/webhooks/{id}/test', path),
      second.c.GET('/finance/v1/webhooks/{id}/deliveries', path),
      second.c.POST('/finance/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', redeliver),
      second.e.GET('/finance/v1/events/{eventId}', { params: { path: { eventId: tested.eventId } } }),
      second.c.DELETE('/finance/v1/webhooks', { params: { query: { id: hook.id } } }),
      acme.a.GET('/v1/webhooks/{id}', path),
      acme.a.GET('/v1/events/{eventId}', { params: { path: { eventId: tested.eventId } } }),
    ]);
    expect(statuses.map((s) => s.response.status)).toEqual(Array(statuses.length).fill(404));
    expect(await unwrap(first.c.GET('/finance/v1/webhooks/{id}', path))).toMatchObject({ enabled: true });
    // Nor does the partner reach a merchant's registration.
    const acmeHook = (await unwrap(acme.a.GET('/v1/webhooks', {})))[0]!;
    expect((await first.c.GET('/finance/v1/webhooks/{id}', { params: { path: { id: acmeHook.id } } })).response.status).toBe(404);

    // Disabled, a redelivery is refused; deleted, it is gone.
    await unwrap(first.c.PATCH('/finance/v1/webhooks/{id}', { ...path, body: { enabled: false } }));
    expect((await first.c.POST('/finance/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', redeliver)).response.status).toBe(409);
    const removed = await first.e.DELETE('/finance/v1/webhooks', { params: { query: { id: hook.id } } });
    expect(removed.response.status).toBe(204);
    expect((await first.c.GET('/finance/v1/webhooks/{id}', path)).response.status).toBe(404);
  });

  it('refuses a private target and a 21st registration, as for a merchant', async () => {
    const strict = await startService(':memory:', { webhookAllowPrivate: false }, { workers: false });
    try {
      const p = await newPartner(strict, []);
      const refused = await p.c.POST('/finance/v1/webhooks', { body: { url: 'https://127.0.0.1/hooks' } });
      expect(refused.response.status).toBe(422);
      expect(refused.error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
    } finally {
      await strict.stop();
    }
    const p = await newPartner(service, [], 'Busy');
    for (let i = 0; i < 20; i++) await unwrap(p.c.POST('/finance/v1/webhooks', { body: { url: `${receiver.url}/busy/${i}` } }));
    const over = await p.c.POST('/finance/v1/webhooks', { body: { url: `${receiver.url}/busy/20` } });
    expect(over.response.status).toBe(422);
    expect(over.error!.type).toBe('https://payouts.example/problems/limit-reached');
    // The partner's count is its own: a merchant's registrations do not count against it, nor its against them.
    await unwrap(globex.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/globex` } }));
  });
});

describe.each(stores)('unlinking a partner from a merchant stops its payment events on $name', (kind) => {
  let service: RunningService;
  let drop: () => Promise<void>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const db = await kind.fresh();
    drop = db.drop;
    // No workers at first: the payment waits in `created` until they start, after the unlink.
    service = await startService(db.url, { sandboxStepMs: 0 }, { workers: false });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await service.stop();
    await receiver.close();
    await drop();
  });

  it('sends the partner nothing new once unlinked; the merchant still receives its own', async () => {
    const m = await newMerchant(service);
    const p = await newPartner(service, [m.merchantId]);
    await unwrap(p.c.POST('/finance/v1/webhooks', { body: { url: `${receiver.url}/partner` } }));
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/merchant`, events: ['payment.created', 'payment.completed'] } }));
    const made = await unwrap(
      p.c.POST('/finance/v1/payment_request', { body: paymentRequest(await recipientOf(p, m.merchantId), m.merchantId) }),
    );
    expect((await unwrap(p.c.GET('/finance/v1/events', {}))).data.map((e) => e.type)).toEqual(['payment.created']);

    expect(await service.services.credentials.unlink(p.partnerId, m.merchantId)).toBe('unlinked');
    for (const worker of workersOf(service.services)) worker.start();
    await receiver.waitFor(
      1,
      (d) => d.path === '/merchant' && d.body.includes('"payment.completed"') && paymentOf(d.body) === made.paymentId,
    );
    // What was written while linked still goes out; nothing after the unlink does.
    await receiver.waitFor(1, (d) => d.path === '/partner' && d.body.includes('"payment.created"'));
    const types = receiver.deliveries.filter((d) => d.path === '/partner').map((d) => JSON.parse(d.body).type);
    expect(types).toEqual(['payment.created']);
    expect((await unwrap(p.c.GET('/finance/v1/events', {}))).data.map((e) => e.type)).toEqual(['payment.created']);
    const merchantTypes = (await unwrap(m.a.GET('/v1/events', {}))).data.map((e) => e.type);
    expect(merchantTypes).toEqual(['payment.completed', 'payment.sent', 'payment.processing', 'payment.created']);
  });
});
