// Receiving webhooks: the payload types of the events, and helpers that parse a delivery and, when the
// registration is signed, verify its signature first. Every event carries `id` (also the `webhook-id` header:
// keep the ids handled, and skip one seen before), `type` and `environment`.
import type { components } from '../generated/merchant/schema.js';
import { verifyWebhook } from './webhook-signature.js';

type Schemas = components['schemas'];
export type PayoutCreatedEvent = Schemas['PayoutEventCreated'];
export type PayoutProcessingEvent = Schemas['PayoutEventProcessing'];
export type PayoutSentEvent = Schemas['PayoutEventSent'];
export type PayoutCompletedEvent = Schemas['PayoutEventCompleted'];
export type PayoutFailedEvent = Schemas['PayoutEventFailed'];
export type PayoutCancelledEvent = Schemas['PayoutEventCancelled'];
export type PayoutEvent =
  | PayoutCreatedEvent
  | PayoutProcessingEvent
  | PayoutSentEvent
  | PayoutCompletedEvent
  | PayoutFailedEvent
  | PayoutCancelledEvent;
export type PayoutEventState = PayoutEvent['state'];
/** A `webhook.test` delivery (`testWebhook`). */
export type WebhookTestEvent = Schemas['WebhookTestEvent'];
/** `transfer.*`: a banking transfer accepted or entering a status, with the transfer. */
export type TransferEvent = Schemas['TransferEvent'];
/** `verification.updated`, with the identity verification. */
export type VerificationEvent = Schemas['VerificationEvent'];
/** `payment.*`: a partner's payment request for the merchant, with the payment. */
export type PaymentEvent = Schemas['PaymentEvent'];
/** `noc.received`: a notification of change, with the transfer or the payment it corrects. */
export type NocEvent = Schemas['NocEvent'];
/** Any event a registration receives, as `listEvents` and `getEvent` return it too. Branch on `type`. */
export type WebhookEvent = PayoutEvent | TransferEvent | VerificationEvent | PaymentEvent | NocEvent | WebhookTestEvent;

const states: readonly PayoutEventState[] = ['created', 'processing', 'sent', 'completed', 'failed', 'cancelled'];

type HeaderBag = Headers | Record<string, string | string[] | undefined>;
const header = (headers: HeaderBag, name: string): string | null => {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
};

/**
 * Parses a webhook delivery from its raw body. With `secret` (the `whsec_...` shown when a signed registration was
 * made or its secret rotated), the Standard Webhooks signature and timestamp are verified first and a
 * WebhookVerificationError is thrown when they do not hold. A body without an event's `id`, `type` and
 * `environment` is a TypeError. Event types added later parse too: handle the types you know and ignore the rest.
 */
export async function receiveEvent(
  body: string,
  headers: HeaderBag = {},
  options: { secret?: string; toleranceSeconds?: number; now?: () => number } = {},
): Promise<WebhookEvent> {
  if (options.secret) {
    await verifyWebhook(
      options.secret,
      {
        id: header(headers, 'webhook-id'),
        timestamp: header(headers, 'webhook-timestamp'),
        signature: header(headers, 'webhook-signature'),
      },
      body,
      options,
    );
  }
  const event = JSON.parse(body) as Partial<WebhookEvent> | null;
  const ok =
    typeof event === 'object' &&
    event !== null &&
    typeof event.id === 'string' &&
    typeof event.type === 'string' &&
    typeof event.environment === 'string';
  if (!ok) throw new TypeError('The body is not an event.');
  return event as WebhookEvent;
}

/** Whether an event is one of a payout's (`payout.<state>`), with the payout's fields. */
export function isPayoutEvent(event: WebhookEvent): event is PayoutEvent {
  const e = event as Partial<PayoutEvent>;
  return (
    event.type.startsWith('payout.') &&
    typeof e.payout_request_id === 'string' &&
    typeof e.amount === 'string' &&
    typeof e.currency === 'string' &&
    typeof e.timestamp === 'string' &&
    states.includes(e.state as PayoutEventState)
  );
}

/** Parses a payout event's delivery as `receiveEvent` does; any other event is a TypeError. */
export async function receivePayoutEvent(
  body: string,
  headers: HeaderBag = {},
  options: { secret?: string; toleranceSeconds?: number; now?: () => number } = {},
): Promise<PayoutEvent> {
  const event = await receiveEvent(body, headers, options);
  if (!isPayoutEvent(event)) throw new TypeError('The body is not a payout event.');
  return event;
}
