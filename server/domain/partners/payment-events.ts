// A payment's events: `payment.created`, then `payment.<state>` for each state it enters (written by its transitions,
// payment-transitions.ts, with the status history row, in the transaction that made the change), and `noc.received`
// for a notification of change, each carrying the payment as `getPayment` shows it (payment-views.ts). The events
// go to the merchant the payment is for (its webhook registrations, its events API), like payouts' events, and,
// while the partner that requested the payment is linked to that merchant, to that partner too: a copy of its own
// (its own id, the same body otherwise), which the partner's registrations receive and its events API lists
// (events/owners.ts). Once the merchant is unlinked, its payments' later events are the merchant's only.
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/merchant/schema.js';
import { eventRow, type NewEvent } from '../events/event-rows.js';
import type { Database, PaymentState, PaymentTable } from '../../platform/store/schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { toPayment } from './payment-views.js';

type Schemas = components['schemas'];

/** `payment.<status>`: the payment entered `status` (only its transitions call this). */
export async function recordPaymentEvent(
  db: Kysely<Database>,
  row: Selectable<PaymentTable>,
  status: PaymentState,
  at: number,
): Promise<void> {
  const payment = toPayment(row);
  await recordForFollowers(db, row, {
    type: `payment.${status}` as const,
    subject: `payment:${row.payment_id}`,
    merchantId: Number(row.merchant_id),
    environment: row.environment,
    at,
    body: (envelope): Schemas['PaymentEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), payment }),
  });
}

/** `noc.received` for a payment: the payee's bank sent corrected account details (the payment shows them). */
export async function recordPaymentNoc(db: Kysely<Database>, row: Selectable<PaymentTable>, at: number): Promise<void> {
  const payment = toPayment(row);
  await recordForFollowers(db, row, {
    type: 'noc.received' as const,
    subject: `payment:${row.payment_id}`,
    merchantId: Number(row.merchant_id),
    environment: row.environment,
    at,
    body: (envelope): Schemas['NocEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), payment }),
  });
}

/** The merchant's event, and the requesting partner's copy while that partner is linked to the merchant. */
async function recordForFollowers<T extends string, B extends object>(
  db: Kysely<Database>,
  row: Selectable<PaymentTable>,
  event: NewEvent<T, B>,
): Promise<void> {
  const rows = [eventRow(event)];
  const partnerId = row.partner_id === null ? null : Number(row.partner_id);
  if (partnerId !== null && (await isLinked(db, partnerId, Number(row.merchant_id))))
    // A subject of its own: the partner's deliveries keep the payment's order without waiting on the merchant's.
    rows.push(eventRow({ ...event, subject: `partner:${partnerId}:${event.subject}`, partnerId }));
  await db.insertInto('events').values(rows).execute();
}

async function isLinked(db: Kysely<Database>, partnerId: number, merchantId: number): Promise<boolean> {
  const link = await db
    .selectFrom('partner_merchants')
    .select('merchant_id')
    .where('partner_id', '=', partnerId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return link !== undefined;
}
