// A payment request's changes of state, recorded the one way: its status history (`payment_status_changes`) and
// its event (`payment.created`, then `payment.<state>`), carrying the payment as `getPayment` shows it, in the
// transaction that made the change. The events go to the merchant the payment is for (its webhook registrations,
// its events API), like payouts' events.
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../generated/merchant/schema.js';
import type { Environment } from '../environment.js';
import { eventRow } from '../events/event-rows.js';
import type { Database, PaymentState, PaymentTable } from '../store/schema.js';
import { isoTimestamp } from '../store/timestamps.js';
import { toPayment } from './payments.js';

export async function recordPaymentChange(
  db: Kysely<Database>,
  row: Selectable<PaymentTable>,
  status: PaymentState,
  at: number,
  environment: Environment,
): Promise<void> {
  await db.insertInto('payment_status_changes').values({ payment_id: row.payment_id, status, at }).execute();
  const payment = toPayment(row);
  await db
    .insertInto('events')
    .values(
      eventRow({
        type: `payment.${status}` as const,
        subject: `payment:${row.payment_id}`,
        merchantId: Number(row.merchant_id),
        environment,
        at,
        body: (envelope): components['schemas']['PaymentEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), payment }),
      }),
    )
    .execute();
}

/** `noc.received` for a payment: the payee's bank sent corrected account details (the payment shows them). */
export async function recordPaymentNoc(
  db: Kysely<Database>,
  row: Selectable<PaymentTable>,
  at: number,
  environment: Environment,
): Promise<void> {
  const payment = toPayment(row);
  await db
    .insertInto('events')
    .values(
      eventRow({
        type: 'noc.received' as const,
        subject: `payment:${row.payment_id}`,
        merchantId: Number(row.merchant_id),
        environment,
        at,
        body: (envelope): components['schemas']['NocEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), payment }),
      }),
    )
    .execute();
}
