// constructEvent against real deliveries: a signed registration's `webhook.test` delivery, as the service sent it
// to a real receiver, verifies with the registration's secret and parses as the typed event; a changed body, another
// secret or a missing secret are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { WebhookVerificationError } from '../../client/webhook-signature.js';
import { constructEvent, parseUnsignedEvent, receiveEvent, receivePayoutEvent, type WebhookEvent } from '../../client/webhooks.js';
import { startReceiver, type Delivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let receiver: WebhookReceiver;
let delivery: Delivery;
let secret: string;
let eventId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  const credentials = await service.services.credentials.createMerchant('Receiver');
  const client = createMerchantClient({ baseUrl: service.baseUrl, credentials });
  const hook = await unwrap(client.POST('/v1/webhooks', { body: { url: `${receiver.url}/signed`, signed: true } }));
  secret = hook.secret!;
  eventId = (await unwrap(client.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }))).eventId;
  delivery = (await receiver.waitFor(1, (d) => d.path === '/signed'))[0]!;
});
afterAll(async () => {
  await receiver.close();
});

describe('constructEvent', () => {
  it('verifies a signed delivery and returns its typed event', async () => {
    const event: WebhookEvent = await constructEvent(delivery.body, delivery.headers, secret);
    expect(event).toMatchObject({ id: eventId, type: 'webhook.test', environment: 'sandbox' });
    expect(delivery.headers['webhook-id']).toBe(event.id);
  });

  it('takes the raw body as bytes and the headers as a Headers object', async () => {
    const headers = new Headers(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
    const event = await constructEvent(new TextEncoder().encode(delivery.body), headers, secret);
    expect(event.id).toBe(eventId);
  });

  it('refuses a changed body, another secret and an old delivery', async () => {
    const changed = delivery.body.replace('sandbox', 'production');
    await expect(constructEvent(changed, delivery.headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
    const other = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
    await expect(constructEvent(delivery.body, delivery.headers, other)).rejects.toBeInstanceOf(WebhookVerificationError);
    const later = () => Date.now() + 10 * 60_000;
    await expect(constructEvent(delivery.body, delivery.headers, secret, { now: later })).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('never skips verification: an unset secret is an error, not an unverified event', async () => {
    await expect(constructEvent(delivery.body, delivery.headers, '')).rejects.toBeInstanceOf(TypeError);
    // process.env.WEBHOOK_SECRET when the variable is unset: it compiles, and accepts nothing.
    await expect(constructEvent(delivery.body, delivery.headers, process.env.UNSET_WEBHOOK_SECRET)).rejects.toThrow(/signing secret/);
  });

  it('is what receiveEvent and receivePayoutEvent do, failing closed in the same way', async () => {
    await expect(receiveEvent(delivery.body.replace('sandbox', 'production'), delivery.headers, { secret })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
    expect((await receiveEvent(delivery.body, delivery.headers, { secret })).id).toBe(eventId);
    for (const options of [{ secret: undefined }, { secret: '' }, undefined as unknown as { secret: string }]) {
      await expect(receiveEvent(delivery.body, delivery.headers, options)).rejects.toThrow(/signing secret/);
      await expect(receivePayoutEvent(delivery.body, delivery.headers, options)).rejects.toThrow(/signing secret/);
    }
    // A verified event that is not a payout's is no payout event.
    await expect(receivePayoutEvent(delivery.body, delivery.headers, { secret })).rejects.toThrow(/not a payout event/);
  });
});

describe('parseUnsignedEvent', () => {
  it("reads an unsigned registration's delivery, and only an event", () => {
    expect(parseUnsignedEvent(delivery.body).id).toBe(eventId);
    expect(parseUnsignedEvent(new TextEncoder().encode(delivery.body)).id).toBe(eventId);
    expect(() => parseUnsignedEvent('{"hello":"world"}')).toThrow(TypeError);
  });
});
