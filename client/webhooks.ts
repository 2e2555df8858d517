// Receiving payout webhooks: the payload types of the six events, and a helper that parses a delivery
// and, when the registration is signed, verifies its signature first.
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

const states: readonly PayoutEventState[] = ['created', 'processing', 'sent', 'completed', 'failed', 'cancelled'];

type HeaderBag = Headers | Record<string, string | string[] | undefined>;
const header = (headers: HeaderBag, name: string): string | null => {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
};

/**
 * Parses a payout webhook delivery from its raw body. With `secret` (the `whsec_...` shown when a signed
 * registration was made), the Standard Webhooks signature and timestamp are verified first and a
 * WebhookVerificationError is thrown when they do not hold. A body that is not a payout event is a TypeError.
 */
export async function receivePayoutEvent(
  body: string,
  headers: HeaderBag = {},
  options: { secret?: string; toleranceSeconds?: number; now?: () => number } = {},
): Promise<PayoutEvent> {
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
  const event = JSON.parse(body) as Partial<PayoutEvent>;
  const ok =
    typeof event === 'object' &&
    event !== null &&
    typeof event.payout_request_id === 'string' &&
    typeof event.amount === 'string' &&
    typeof event.currency === 'string' &&
    typeof event.timestamp === 'string' &&
    states.includes(event.state as PayoutEventState);
  if (!ok) throw new TypeError('The body is not a payout event.');
  return event as PayoutEvent;
}
