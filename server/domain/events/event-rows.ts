// The one way an event is written: its public id (`evt_` and a ULID of when it happened: random, never
// sequential), and a body that carries that id, the type and the environment beside the event's own fields.
// The body is what every delivery sends and what the events API returns, so the two cannot differ.
import type { Insertable } from 'kysely';
import { newEventId } from '../../platform/ids/identifiers.js';
import type { Environment } from '../../platform/environment.js';
import type { EventTable } from '../../platform/store/schema.js';

export interface EventEnvelope<T extends string = string> {
  id: string;
  type: T;
  environment: Environment;
}

export interface NewEvent<T extends string, B extends object> {
  type: T;
  /** What the event is about; a subject's events are delivered in order. */
  subject: string;
  merchantId: number;
  /** Set for a partner's copy of a payment's event (events/owners.ts); the merchant's own event otherwise. */
  partnerId?: number;
  environment: Environment;
  at: number;
  /** The body, given the envelope (its fields come first). */
  body: (envelope: EventEnvelope<T>) => B;
  /** Set for an event that is not delivered by the dispatcher (a webhook test is sent at once). */
  dispatchedAt?: number;
}

export function eventRow<T extends string, B extends object>(event: NewEvent<T, B>): Insertable<EventTable> {
  const id = newEventId(event.at);
  return {
    event_id: id,
    type: event.type,
    subject: event.subject,
    merchant_id: event.merchantId,
    partner_id: event.partnerId ?? null,
    environment: event.environment,
    payload: JSON.stringify(event.body({ id, type: event.type, environment: event.environment })),
    created_at: event.at,
    dispatched_at: event.dispatchedAt ?? null,
  };
}
