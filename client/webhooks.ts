// Receiving webhooks: the payload types of the events, `constructEvent` (verify a signed delivery, then parse
// it), and helpers for unsigned registrations. Every event carries `id` (also the `webhook-id` header:
// keep the ids handled, and skip one seen before), `type` and `environment`.
import { PayoutState } from '../generated/merchant/enums.js';
import type { components } from '../generated/merchant/schema.js';
import { verifyWebhook } from './webhook-signature.js';

type Schemas = components['schemas'];
export type PayoutCreatedEvent = Schemas['PayoutEventCreated'];
export type PayoutProcessingEvent = Schemas['PayoutEventProcessing'];
export type PayoutSentEvent = Schemas['PayoutEventSent'];
export type PayoutCompletedEvent = Schemas['PayoutEventCompleted'];
export type PayoutFailedEvent = Schemas['PayoutEventFailed'];
export type PayoutCancelledEvent = Schemas['PayoutEventCancelled'];
/** `payout.returned`: the receiving bank returned a completed payout; `return_code` says why. */
export type PayoutReturnedEvent = Schemas['PayoutEventReturned'];
export type PayoutEvent =
  | PayoutCreatedEvent
  | PayoutProcessingEvent
  | PayoutSentEvent
  | PayoutCompletedEvent
  | PayoutFailedEvent
  | PayoutCancelledEvent
  | PayoutReturnedEvent;
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
/**
 * Any event a partner's registration receives (groups C and E), as `listPartnerEvents` and `getPartnerEvent` return
 * it too: the payment requests' events, their notifications of change and tests. Branch on `type`.
 */
export type PartnerWebhookEvent = PaymentEvent | NocEvent | WebhookTestEvent;

/** The states a payout event documents (an event of a state added later is not one `isPayoutEvent` knows). */
const states: readonly PayoutEventState[] = PayoutState;

type HeaderBag = Headers | Record<string, string | string[] | undefined>;
const header = (headers: HeaderBag, name: string): string | null => {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
};

type VerifyOptions = { toleranceSeconds?: number; now?: () => number };

function parseEvent(body: string): WebhookEvent {
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

/**
 * The event of a signed webhook delivery, once its Standard Webhooks signature and timestamp hold: give the raw
 * body exactly as received (a string or the bytes), the request's headers (`req.headers` of node:http or Express, or
 * a fetch `Headers`) and the registration's `whsec_...` secret. Fails closed: with no secret (an unset environment
 * variable) it throws a TypeError and accepts nothing. Throws WebhookVerificationError when the delivery is not
 * signed with the secret or is older than `toleranceSeconds` (default 300), and TypeError when the body is not an
 * event. Branch on `type`: event types added later parse too, so handle the types you know and ignore the rest.
 */
export async function constructEvent(
  payload: string | Uint8Array,
  headers: HeaderBag,
  secret: string | undefined,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  // An unset secret (a missing environment variable) must not turn verification off.
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError("constructEvent needs the registration's signing secret (whsec_...); without it no delivery is accepted.");
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  await verifyWebhook(
    secret,
    { id: header(headers, 'webhook-id'), timestamp: header(headers, 'webhook-timestamp'), signature: header(headers, 'webhook-signature') },
    body,
    options,
  );
  return parseEvent(body);
}

/**
 * The event of an unsigned registration's delivery, read without any check: anyone who can reach the receiver can
 * send one. Only for a registration made with `signed: false`; a signed one's deliveries go through
 * `constructEvent`. A body without an event's `id`, `type` and `environment` is a TypeError.
 */
export function parseUnsignedEvent(payload: string | Uint8Array): WebhookEvent {
  return parseEvent(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
}

/**
 * `constructEvent` with the secret in an options object; it fails closed in the same way (no secret, no event).
 * @deprecated Use `constructEvent(payload, headers, secret)`, or `parseUnsignedEvent` for an unsigned registration.
 */
export async function receiveEvent(
  payload: string | Uint8Array,
  headers: HeaderBag,
  options: { secret: string | undefined } & VerifyOptions,
): Promise<WebhookEvent> {
  return constructEvent(payload, headers, options?.secret, options);
}

/** Whether an event is one of a payout's (`payout.<state>`), with the payout's fields. */
// Any event is taken, as a delivery or a list gives it (a list's items include the open variant of a type added later).
export function isPayoutEvent(event: { type: string }): event is PayoutEvent {
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

/** Whether an event is one of a payment request's (`payment.<status>`), with the payment. */
export function isPaymentEvent(event: { type: string }): event is PaymentEvent {
  const e = event as Partial<PaymentEvent>;
  return event.type.startsWith('payment.') && typeof e.timestamp === 'string' && typeof e.payment === 'object' && e.payment !== null;
}

/** `receiveEvent` for a payout event's delivery (the same fail-closed check); any other event is a TypeError. */
export async function receivePayoutEvent(
  payload: string | Uint8Array,
  headers: HeaderBag,
  options: { secret: string | undefined } & VerifyOptions,
): Promise<PayoutEvent> {
  const event = await constructEvent(payload, headers, options?.secret, options);
  if (!isPayoutEvent(event)) throw new TypeError('The body is not a payout event.');
  return event;
}
