// Events and webhook management over real HTTP, on each store: every delivery carries its event's id, a receiver
// that was down recovers every event from `listEvents` with those ids, the events API's filters, paging, scope and
// 30-day retention, and the registration operations (get, update, rotate the secret, test, list deliveries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachEvent, eachWebhookDelivery } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import { verifyWebhook, WebhookVerificationError } from '../../client/webhook-signature.js';
import { eventRetentionMs } from '../../server/domain/events/events.js';
import { newEventId } from '../../server/platform/ids/identifiers.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { unsettled } from '../support/settled-events.js';
import { stores } from '../support/stores.js';
import { startReceiver, type Delivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

const eventIdPattern = /^evt_[0-9a-hjkmnp-tv-z]{26}$/;
const problem = (kind: string) => `https://payouts.example/problems/${kind}`;

async function payout(m: TestMerchant, accountNumber = '000123456789') {
  const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
  await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount(accountNumber) }));
  return unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 10, Currency: 'USD' } }));
}

const headersOf = (d: Delivery) => ({
  id: d.headers['webhook-id'] as string,
  timestamp: d.headers['webhook-timestamp'] as string,
  signature: d.headers['webhook-signature'] as string,
});

describe.each(stores)('events and webhook management on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });
  let receiver: WebhookReceiver;

  /** Waits until the payouts are final and every one of their events is dispatched and answered. */
  const settled = (payouts: string[]) =>
    expect.poll(() => unsettled(service.services.store, { payouts }), { timeout: 10_000, interval: 20 }).toEqual([]);

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('a receiver that was down recovers every event of the payout from listEvents, with the ids its deliveries carried', async () => {
    const m = await newMerchant(service);
    const down = await startReceiver();
    down.respondWith(503);
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: down.url } }));
    const p = await payout(m);
    await down.waitFor(4);
    await settled([p.PayoutUniqueReference]);
    // Unsigned, yet each delivery names its event, and the body carries the same id, its type and environment.
    const delivered = down.deliveries.map((d) => ({ header: d.headers['webhook-id'], body: JSON.parse(d.body) }));
    for (const d of delivered) {
      expect(d.header).toMatch(eventIdPattern);
      expect(d.body).toMatchObject({ id: d.header, type: `payout.${d.body.state}`, environment: 'sandbox' });
    }
    expect(new Set(delivered.map((d) => d.header)).size).toBe(4);

    const listed = await unwrap(m.a.GET('/v1/events', { params: { query: { PayoutUniqueReference: p.PayoutUniqueReference } } }));
    expect(listed.nextCursor).toBeNull();
    // Newest first, each exactly the body that was delivered.
    expect(listed.data).toEqual(delivered.map((d) => d.body).reverse());
    // The catch-up loop of the webhooks guide: every event since the receiver went down, a page at a time.
    const recovered = [];
    for await (const event of eachEvent(m.a, { CreatedFrom: new Date(Date.parse(p.CreatedOn) - 1).toISOString(), PageSize: 1 }))
      recovered.push(event);
    expect(recovered).toEqual(listed.data);
    for (const d of delivered)
      expect(await unwrap(m.a.GET('/v1/events/{eventId}', { params: { path: { eventId: d.header as string } } }))).toEqual(d.body);

    // The deliveries are recorded against the same events, each failed with the receiver's 503 and its reason.
    const deliveries = await unwrap(m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id } } }));
    expect(deliveries.data.map((d) => d.eventId)).toEqual(listed.data.map((e) => e.id));
    expect(deliveries.data.every((d) => d.outcome === 'failed' && d.statusCode === 503 && d.error === 'answered 503')).toBe(true);
    const eachDelivery = [];
    for await (const d of eachWebhookDelivery(m.a, hook.id, { PageSize: 3 })) eachDelivery.push(d);
    expect(eachDelivery).toEqual(deliveries.data);
    expect(deliveries.data.map((d) => d.eventType)).toEqual(['payout.completed', 'payout.sent', 'payout.processing', 'payout.created']);
    // Each failure is logged at warn with its reason (and delivery is still once: nothing was sent again).
    await expect
      .poll(() => service.warnings.filter((l) => l.includes('"msg":"webhook delivery failed"') && l.includes(hook.id)).length)
      .toBe(4);
    expect(service.warnings.find((l) => l.includes(hook.id))).toContain('"reason":"answered 503"');
    expect(down.deliveries).toHaveLength(4);
    await down.close();
  });

  it('lists events newest first with cursor paging, filters by type, payout and time, and only the caller’s', async () => {
    const m = await newMerchant(service);
    const other = await newMerchant(service, 'Other');
    const before = new Date().toISOString();
    const first = await payout(m);
    const second = await payout(m, '000000000002'); // fails
    await settled([first.PayoutUniqueReference, second.PayoutUniqueReference]);
    const all = await unwrap(m.a.GET('/v1/events'));
    expect(all.data.map((e) => e.type).sort()).toEqual(
      [
        'payout.created',
        'payout.processing',
        'payout.sent',
        'payout.completed',
        'payout.created',
        'payout.processing',
        'payout.failed',
      ].sort(),
    );
    const ids = all.data.map((e) => e.id);
    // Newest first, in the order they were written: each payout's events in the reverse of the order they happened
    // (events of different payouts written concurrently may interleave either way).
    const ofPayout = (reference: string) =>
      all.data.filter((e) => (e as { payout_request_id?: string }).payout_request_id === reference).map((e) => e.type);
    expect(ofPayout(first.PayoutUniqueReference)).toEqual(['payout.completed', 'payout.sent', 'payout.processing', 'payout.created']);
    expect(ofPayout(second.PayoutUniqueReference)).toEqual(['payout.failed', 'payout.processing', 'payout.created']);
    const created = all.data.filter((e) => e.type === 'payout.created').map((e) => (e as { payout_request_id: string }).payout_request_id);
    expect(created).toEqual([second.PayoutUniqueReference, first.PayoutUniqueReference]);

    // Pages of 2 give the same events in the same order.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await unwrap(m.a.GET('/v1/events', { params: { query: { PageSize: 2, Cursor: cursor } } }));
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(ids);

    const finals = await unwrap(m.a.GET('/v1/events', { params: { query: { Type: ['payout.completed', 'payout.failed'] } } }));
    expect(finals.data.map((e) => e.type).sort()).toEqual(['payout.completed', 'payout.failed']);
    // Repeated in the raw query string as a browser or curl sends it.
    const raw = await fetch(`${service.baseUrl}/v1/events?Type=payout.failed&Type=payout.created`, {
      headers: {
        authorization: `Bearer ${await service.token({ kind: 'merchant', merchantId: m.merchantId })}`,
      },
    });
    expect(((await raw.json()) as { data: { type: string }[] }).data.map((e) => e.type).sort()).toEqual([
      'payout.created',
      'payout.created',
      'payout.failed',
    ]);
    const ofSecond = await unwrap(m.a.GET('/v1/events', { params: { query: { PayoutUniqueReference: second.PayoutUniqueReference } } }));
    expect(ofSecond.data.map((e) => e.type)).toEqual(['payout.failed', 'payout.processing', 'payout.created']);
    expect((await unwrap(m.a.GET('/v1/events', { params: { query: { CreatedFrom: before } } }))).data).toHaveLength(7);
    expect((await unwrap(m.a.GET('/v1/events', { params: { query: { CreatedTo: before } } }))).data).toEqual([]);
    // Group B serves the same events.
    expect((await unwrap(m.b.GET('/v1/events'))).data.map((e) => e.id)).toEqual(ids.slice(0, 7));

    // Another merchant lists none of them and reads none of them.
    expect((await unwrap(other.a.GET('/v1/events'))).data).toEqual([]);
    const foreign = await other.a.GET('/v1/events/{eventId}', { params: { path: { eventId: ids[0]! } } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error!.type).toBe(problem('not-found'));
  });

  it('refuses a reversed time range, a foreign cursor and an unknown type, naming the parameter', async () => {
    const m = await newMerchant(service);
    const reversed = await m.a.GET('/v1/events', {
      params: { query: { CreatedFrom: '2026-11-02T15:00:00Z', CreatedTo: '2026-11-02T14:00:00Z' } },
    });
    expect(reversed.response.status).toBe(422);
    expect(reversed.error!.errors).toContainEqual(expect.objectContaining({ parameter: 'CreatedTo' }));
    const cursor = await m.a.GET('/v1/events', { params: { query: { Cursor: 'bm90LWEtY3Vyc29y' } } });
    expect(cursor.response.status).toBe(400);
    expect(cursor.error!.errors).toContainEqual(expect.objectContaining({ parameter: 'Cursor' }));
    const type = await m.a.GET('/v1/events', { params: { query: { Type: ['payout.exploded' as 'payout.created'] } } });
    expect(type.response.status).toBe(400);
    expect(type.error!.errors).toContainEqual(expect.objectContaining({ parameter: 'Type' }));
    const badId = await m.a.GET('/v1/events/{eventId}', { params: { path: { eventId: 'evt_1' } } });
    expect(badId.response.status).toBe(400);
  });

  it('keeps events 30 days: older ones are neither listed nor read, and the purge deletes them with their deliveries', async () => {
    const m = await newMerchant(service);
    const old = Date.now() - eventRetentionMs - 60_000;
    const eventId = newEventId(old);
    const db = service.services.store.db;
    const row = await db
      .insertInto('events')
      .values({
        event_id: eventId,
        type: 'payout.created',
        subject: 'po_00000000000000000000000000',
        merchant_id: m.merchantId,
        environment: 'sandbox',
        payload: JSON.stringify({ id: eventId }),
        created_at: old,
        dispatched_at: old,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('webhook_deliveries')
      .values({
        event_id: row.id,
        webhook_id: 'old-registration',
        message_id: eventId,
        url: 'https://hooks.example/old',
        outcome: 'delivered',
        status_code: 200,
        error: null,
        duration_ms: 5,
        attempted_at: old,
      })
      .execute();
    expect((await unwrap(m.a.GET('/v1/events'))).data).toEqual([]);
    expect((await m.a.GET('/v1/events/{eventId}', { params: { path: { eventId } } })).response.status).toBe(404);
    expect(await service.services.events.purge()).toBeGreaterThanOrEqual(1);
    expect(await db.selectFrom('events').select('id').where('event_id', '=', eventId).execute()).toEqual([]);
    expect(await db.selectFrom('webhook_deliveries').select('event_id').where('event_id', '=', row.id).execute()).toEqual([]);
  });

  it('reads and updates a registration: disabled, it receives nothing; its new events and url apply to later events', async () => {
    const m = await newMerchant(service);
    const other = await newMerchant(service, 'Other');
    const watcher = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/watcher`, events: ['payout.completed'] } }));
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/managed` } }));
    expect(hook.enabled).toBe(true);
    const { secret: _none, ...shown } = hook;
    expect(await unwrap(m.a.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }))).toEqual(shown);

    const off = await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { enabled: false } }));
    expect(off).toEqual({ ...shown, enabled: false });
    const quiet = await payout(m);
    await receiver.waitFor(1, (d) => d.path === '/watcher' && d.body.includes(quiet.PayoutUniqueReference));
    await settled([quiet.PayoutUniqueReference]);
    expect(receiver.deliveries.filter((d) => d.path === '/managed')).toEqual([]);

    const changed = await unwrap(
      m.a.PATCH('/v1/webhooks/{id}', {
        params: { path: { id: hook.id } },
        body: { enabled: true, events: ['payout.failed', 'payout.completed'], url: `${receiver.url}/moved` },
      }),
    );
    expect(changed).toMatchObject({ enabled: true, events: ['payout.completed', 'payout.failed'], url: `${receiver.url}/moved` });
    const heard = await payout(m);
    await receiver.waitFor(1, (d) => d.path === '/moved' && d.body.includes(heard.PayoutUniqueReference));
    await settled([heard.PayoutUniqueReference]);
    expect(receiver.deliveries.filter((d) => d.path === '/moved').map((d) => JSON.parse(d.body).type)).toEqual(['payout.completed']);
    expect(watcher.enabled).toBe(true);

    // Refused before anything is written: an empty change, an unknown field, a bad url; another merchant's is not found.
    for (const body of [{}, { enabled: true, secret: 'x' }, { url: 'ftp://hooks.example/x' }]) {
      const r = await m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: body as { enabled: boolean } });
      expect(r.response.status, JSON.stringify(body)).toBe(400);
    }
    expect(await unwrap(m.a.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }))).toEqual(changed);
    for (const r of [
      await other.a.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }),
      await other.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { enabled: false } }),
      await other.a.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } }),
      await other.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }),
      await other.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id } } }),
    ])
      expect(r.response.status).toBe(404);
    expect((await unwrap(m.a.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }))).enabled).toBe(true);
    // A removed registration is gone for every operation.
    await m.a.DELETE('/v1/webhooks', { params: { query: { id: hook.id } } });
    expect((await m.a.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } })).response.status).toBe(404);
  });

  it('tests a registration: a webhook.test event sent now, its outcome answered, kept like any event', async () => {
    const m = await newMerchant(service);
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/tested`, events: ['payout.failed'] } }));
    await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { enabled: false } }));
    const result = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    expect(result).toMatchObject({
      eventType: 'webhook.test',
      webhookId: hook.id,
      url: `${receiver.url}/tested`,
      outcome: 'delivered',
      statusCode: 200,
      error: null,
    });
    // The receiver had it before the answer came back.
    const got = receiver.deliveries.filter((d) => d.path === '/tested');
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['webhook-id']).toBe(result.eventId);
    const body = JSON.parse(got[0]!.body);
    expect(body).toEqual({
      id: result.eventId,
      type: 'webhook.test',
      environment: 'sandbox',
      timestamp: expect.any(String),
      webhook_id: hook.id,
    });
    expect(await unwrap(m.a.GET('/v1/events/{eventId}', { params: { path: { eventId: result.eventId } } }))).toEqual(body);

    // A receiver that fails is an outcome of the test, not an error of it; so is one that is not there.
    const failing = await startReceiver();
    failing.respondWith(500);
    await unwrap(m.a.PATCH('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { url: failing.url } }));
    const failed = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    expect(failed).toMatchObject({ outcome: 'failed', statusCode: 500, error: 'answered 500' });
    await failing.close();
    const gone = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    expect(gone).toMatchObject({ outcome: 'failed', statusCode: null });
    expect(gone.error).toBeTruthy();

    // The deliveries, newest first, in pages.
    const firstPage = await unwrap(m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { PageSize: 2 } } }));
    expect(firstPage.data.map((d) => d.eventId)).toEqual([gone.eventId, failed.eventId]);
    const secondPage = await unwrap(
      m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { PageSize: 2, Cursor: firstPage.nextCursor! } } }),
    );
    expect(secondPage).toEqual({ data: [result], nextCursor: null });
  });

  it('rotates a secret: shown once, both secrets sign for 24 hours, then only the new one; a second rotation ends the oldest', async () => {
    const m = await newMerchant(service);
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/rotating`, signed: true } }));
    const first = hook.secret!;
    const rotated = await unwrap(m.a.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } }));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first);
    const expires = Date.parse(rotated.previousSecretExpiresOn!);
    expect(expires - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(JSON.stringify(await unwrap(m.a.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } })))).not.toContain(rotated.secret);

    const deliveryOfTest = async () => {
      const { eventId } = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
      return receiver.deliveries.find((d) => d.headers['webhook-id'] === eventId)!;
    };
    const during = await deliveryOfTest();
    expect(headersOf(during).signature.split(' ')).toHaveLength(2);
    await verifyWebhook(first, headersOf(during), during.body);
    await verifyWebhook(rotated.secret, headersOf(during), during.body);

    // 24 hours later (the stored expiry moved into the past): only the new secret signs.
    await service.services.store.db
      .updateTable('webhooks')
      .set({ previous_secret_until: Date.now() - 1 })
      .where('id', '=', hook.id)
      .execute();
    const after = await deliveryOfTest();
    expect(headersOf(after).signature.split(' ')).toHaveLength(1);
    await verifyWebhook(rotated.secret, headersOf(after), after.body);
    await expect(verifyWebhook(first, headersOf(after), after.body)).rejects.toBeInstanceOf(WebhookVerificationError);

    // Rotating twice within the 24 hours: the first secret stops at once, the second still signs.
    const third = await unwrap(m.a.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } }));
    const fourth = await unwrap(m.a.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } }));
    const last = await deliveryOfTest();
    await verifyWebhook(fourth.secret, headersOf(last), last.body);
    await verifyWebhook(third.secret, headersOf(last), last.body);
    await expect(verifyWebhook(rotated.secret, headersOf(last), last.body)).rejects.toBeInstanceOf(WebhookVerificationError);

    // An unsigned registration becomes signed; there was no previous secret.
    const plain = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/plain` } }));
    const signedNow = await unwrap(m.a.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: plain.id } } }));
    expect(signedNow).toMatchObject({ signed: true, previousSecretExpiresOn: null });
  });
});
