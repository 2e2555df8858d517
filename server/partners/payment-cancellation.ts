// Cancelling a payment request: the one state change a caller makes rather than the payment engine. A
// compare-and-set on `created` and the status change it records, in the caller's transaction, as the engine's
// steps are: when a cancel races the engine's first step, exactly one update matches and the other changes nothing.
import type { Kysely, Selectable } from 'kysely';
import type { Environment } from '../environment.js';
import type { Database, PaymentTable } from '../store/schema.js';
import { recordPaymentChange } from './payment-events.js';

/** Moves the payment from `created` to `cancelled`; undefined when it was no longer `created` (the engine won). */
export async function cancelIfCreated(
  db: Kysely<Database>,
  paymentId: number,
  environment: Environment,
  now = Date.now(),
): Promise<Selectable<PaymentTable> | undefined> {
  const cancelled = await db
    .updateTable('payments')
    .set({ status: 'cancelled', processing_status: 'cancelled', next_step_at: null, updated_at: now })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'created')
    .returningAll()
    .executeTakeFirst();
  if (cancelled) await recordPaymentChange(db, cancelled, 'cancelled', now, environment);
  return cancelled;
}
