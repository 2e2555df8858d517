// Webhook registrations and deliveries over real HTTP, on each store: register, list and delete per
// merchant, event selection, environments, Standard Webhooks signatures, delivery records, once-only
// delivery, and the private-address guard at registration and at delivery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { receivePayoutEvent } from '../../client/webhooks.js';
import { WebhookVerificationError } from '../../client/webhook-signature.js';
import { checkTarget, isPrivateAddress } from '../../server/domain/webhooks/address-guard.js';
import { allEvents } from '../../server/domain/webhooks/webhook-registrations.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { startService, type RunningService } from '../support/service.js';
import { unsettled } from '../support/settled-events.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

async function payout(m: TestMerchant, accountNumber = '000123456789') {
  const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
  await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount(accountNumber) }));
  return unwrap(m.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 10, Currency: 'USD' } }));
}

/** The delivery records whose URL passes `match`, once `count` of them have an outcome (not `sending`). */
async function settledRecords(service: RunningService, match: (url: string) => boolean, count: number) {
  const records = async () =>
    (await service.services.store.db.selectFrom('webhook_deliveries').selectAll().execute()).filter((r) => match(r.url));
  await expect
    .poll(async () => (await records()).filter((r) => r.outcome !== 'sending').length, { timeout: 10_000, interval: 20 })
    .toBeGreaterThanOrEqual(count);
  return records();
}

/** Waits until the payouts are final and every one of their events is dispatched and answered: nothing more will be sent. */
const settled = (service: RunningService, payouts: string[]) =>
  expect.poll(() => unsettled(service.services.store, { payouts }), { timeout: 10_000, interval: 20 }).toEqual([]);

describe.each(stores)('webhooks on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 0 });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('registers, lists and deletes per merchant; another merchant sees and removes nothing', async () => {
    const m = await newMerchant(service);
    const other = await newMerchant(service, 'Other');
    const answer = await m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/a` } });
    const created = await unwrap(answer);
    // Location names the registration's read (getWebhook), which answers it.
    expect(answer.response.headers.get('location')).toBe(`/v1/webhooks/${created.id}`);
    expect((await unwrap(m.a.GET('/v1/webhooks/{id}', { params: { path: { id: created.id } } }))).id).toBe(created.id);
    expect(created).toMatchObject({
      url: `${receiver.url}/a`,
      environment: 'sandbox',
      signed: false,
      secret: null,
      events: allEvents,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await unwrap(
      m.a.POST('/v1/webhooks', {
        body: { url: `${receiver.url}/b`, events: ['payout.completed', 'payout.failed'], environment: 'production' },
      }),
    );
    expect((await unwrap(m.a.GET('/v1/webhooks'))).map((w) => w.id)).toEqual([created.id, second.id]);
    expect(await unwrap(other.a.GET('/v1/webhooks'))).toEqual([]);
    expect((await other.a.DELETE('/v1/webhooks', { params: { query: { id: created.id } } })).response.status).toBe(404);
    const removed = await m.a.DELETE('/v1/webhooks', { params: { query: { id: created.id } } });
    expect(removed.response.status).toBe(204);
    expect((await unwrap(m.a.GET('/v1/webhooks'))).map((w) => w.id)).toEqual([second.id]);
    expect((await m.a.DELETE('/v1/webhooks', { params: { query: { id: created.id } } })).response.status).toBe(404);
  });

  it('delivers only the selected events, only for its environment, each once, and records each delivery', async () => {
    const m = await newMerchant(service);
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/final`, events: ['payout.completed', 'payout.failed'] } }));
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/all` } }));
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/production`, environment: 'production' } }));
    const p = await payout(m);
    await receiver.waitFor(5, (d) => d.body.includes(p.PayoutUniqueReference));
    await settled(service, [p.PayoutUniqueReference]);
    const got = receiver.deliveries.filter((d) => d.body.includes(p.PayoutUniqueReference));
    expect(got.filter((d) => d.path === '/final').map((d) => JSON.parse(d.body).state)).toEqual(['completed']);
    expect(got.filter((d) => d.path === '/all').map((d) => JSON.parse(d.body).state)).toEqual([
      'created',
      'processing',
      'sent',
      'completed',
    ]);
    expect(got.filter((d) => d.path === '/production')).toEqual([]);
    const mine = await settledRecords(service, (url) => url === `${receiver.url}/final` || url === `${receiver.url}/all`, 5);
    expect(mine).toHaveLength(5);
    expect(mine.every((r) => r.outcome === 'delivered' && r.status_code === 200 && r.duration_ms !== null)).toBe(true);
  });

  it('marks unknown a delivery whose sender stopped before recording it, and nothing in flight', async () => {
    const now = Date.now();
    const row = (eventId: number, attemptedAt: number) => ({
      event_id: eventId,
      webhook_id: `wh_abandoned_${kind.name}`,
      message_id: `msg_${eventId}`,
      url: 'https://gone.example/hook',
      outcome: 'sending' as const,
      status_code: null,
      error: null,
      duration_ms: null,
      attempted_at: attemptedAt,
    });
    // Claimed by a process that died two minutes ago, and one claimed a second ago by a live sender.
    await service.services.store.db
      .insertInto('webhook_deliveries')
      .values([row(900_000_001, now - 120_000), row(900_000_002, now - 1_000)])
      .execute();
    expect(await service.services.dispatcher.settleAbandoned(now)).toBe(1);
    const rows = await service.services.store.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', `wh_abandoned_${kind.name}`)
      .orderBy('event_id')
      .execute();
    expect(rows.map((r) => r.outcome)).toEqual(['unknown', 'sending']);
    expect(rows[0]!.error).toContain('not sent again');
    expect(await service.services.dispatcher.settleAbandoned(now)).toBe(0);
  });

  it('records a failed delivery and does not send it again', async () => {
    const m = await newMerchant(service);
    const failing = await startReceiver();
    failing.respondWith(500);
    await unwrap(m.a.POST('/v1/webhooks', { body: { url: failing.url, events: ['payout.created'] } }));
    const p = await payout(m);
    await failing.waitFor(1);
    await settled(service, [p.PayoutUniqueReference]);
    expect(failing.deliveries).toHaveLength(1);
    const [record] = await settledRecords(service, (url) => url === failing.url, 1);
    expect(record).toMatchObject({ outcome: 'failed', status_code: 500 });
    expect(JSON.parse(failing.deliveries[0]!.body).payout_request_id).toBe(p.PayoutUniqueReference);
    await failing.close();
  });

  it('does not follow a redirect: the delivery is recorded as failed with the 3xx, the target never contacted', async () => {
    const m = await newMerchant(service);
    const elsewhere = await startReceiver();
    const { createServer } = await import('node:http');
    const redirecting = createServer((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/stolen` }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(redirecting.address() as import('node:net').AddressInfo).port}/hook`;
    try {
      await unwrap(m.a.POST('/v1/webhooks', { body: { url, events: ['payout.created'] } }));
      await payout(m);
      const [record] = await settledRecords(service, (u) => u === url, 1);
      expect(record).toMatchObject({ outcome: 'failed', status_code: 302 });
      expect(elsewhere.deliveries).toEqual([]);
    } finally {
      redirecting.close();
      await elsewhere.close();
    }
  });

  it('signs deliveries of signed registrations (Standard Webhooks), with the secret shown only once', async () => {
    const m = await newMerchant(service);
    const created = await unwrap(
      m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/signed`, signed: true, events: ['payout.created'] } }),
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await unwrap(m.a.GET('/v1/webhooks')))).not.toContain(created.secret!);
    const p = await payout(m);
    const [delivery] = await receiver.waitFor(1, (d) => d.path === '/signed' && d.body.includes(p.PayoutUniqueReference));
    expect(delivery!.headers['webhook-id']).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(delivery!.headers['webhook-id']).toBe(JSON.parse(delivery!.body).id);
    const event = await receivePayoutEvent(delivery!.body, delivery!.headers as Record<string, string>, { secret: created.secret! });
    expect(event).toMatchObject({ state: 'created', payout_request_id: p.PayoutUniqueReference });
    await expect(
      receivePayoutEvent(delivery!.body.replace('10.00', '99.00'), delivery!.headers as Record<string, string>, {
        secret: created.secret!,
      }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(
      receivePayoutEvent(delivery!.body, delivery!.headers as Record<string, string>, { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('holds at most 20 registrations per merchant', async () => {
    const m = await newMerchant(service);
    for (let i = 0; i < 20; i++)
      await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${receiver.url}/${i}`, events: ['payout.completed'] } }));
    const over = await m.a.POST('/v1/webhooks', { body: { url: receiver.url } });
    expect(over.response.status).toBe(422);
    expect(over.error!.type).toBe('https://payouts.example/problems/limit-reached');
  });
});

describe('the private-address guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each([
    ['http://hooks.example.com/x', 'must use https'],
    ['https://127.0.0.1/x', 'private'],
    ['https://2130706433/x', 'private'],
    ['https://0x7f.0.0.1/x', 'private'],
    ['https://0177.0.0.1/x', 'private'],
    ['https://[::ffff:127.0.0.1]/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'private'],
    ['https://user:pass@hooks.example.com/x', 'credentials'],
    ['https://internal.example/x', 'private'],
  ])('refuses %s', async (url, reason) => {
    const resolve = async (host: string) =>
      host === 'internal.example' ? [{ address: '10.0.0.5', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];
    await expect(checkTarget(url, false, resolve)).rejects.toThrow(reason);
  });

  it('refuses private targets at registration and answers 422 naming the url', async () => {
    const service = await startService(':memory:', { webhookAllowPrivate: false });
    try {
      const m = await newMerchant(service);
      for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://169.254.169.254/hook', 'http://hooks.example.com/hook']) {
        const { response, error } = await m.a.POST('/v1/webhooks', { body: { url } });
        expect(response.status, url).toBe(422);
        expect(error!.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
      }
      expect(await unwrap(m.a.GET('/v1/webhooks'))).toEqual([]);
    } finally {
      await service.stop();
    }
  });

  it('checks again at delivery: a name that now resolves to a private address is refused, not sent', async () => {
    let answer = '93.184.216.34';
    const resolve = async () => [{ address: answer, family: 4 }];
    const service = await startService(':memory:', { webhookAllowPrivate: false, sandboxStepMs: 0 }, { resolve });
    try {
      const m = await newMerchant(service);
      await unwrap(m.a.POST('/v1/webhooks', { body: { url: 'https://rebind.example/hook', events: ['payout.created'] } }));
      answer = '127.0.0.1';
      await payout(m);
      const [record] = await settledRecords(service, () => true, 1);
      expect(record).toMatchObject({ outcome: 'refused', status_code: null });
      expect(record!.error).toContain('private');
    } finally {
      await service.stop();
    }
  });
});
