// The one way a payment changes state: a compare-and-set on its current state, the row of its status history
// (`payment_status_changes`) and the state's event (`payment.<state>`: the merchant's, and the requesting partner's
// copy while linked, payment-events.ts), in the caller's transaction. When two callers race (a cancel and the
// engine), exactly one update matches and the other changes nothing. The states are a payout's:
//   created → processing → sent → completed; created → cancelled; processing or sent → failed
//   completed → returned (the receiving bank's return, days later: the sandbox's simulatePaymentReturn)
// failed, cancelled and returned are final.
import type { Kysely, Selectable } from 'kysely';
import { allowedPayoutTransitions } from '../payouts/payout-transitions.js';
import { finalStates } from '../rails/payout-rail.js';
import type { Database, PaymentState, PaymentTable } from '../../platform/store/schema.js';
import { recordPaymentEvent } from './payment-events.js';

type PaymentRow = Selectable<PaymentTable>;

/** The states each state may move to (none from a final one): the only moves `transitionPayment` makes. A payment
 * moves on the payout rail, so its machine is the payout's, stated once (payouts/payout-transitions.ts). */
export const allowedPaymentTransitions: Readonly<Record<PaymentState, readonly PaymentState[]>> = allowedPayoutTransitions;

export interface PaymentTransitionOptions {
  now: number;
  /** When the rail takes the next step; ignored (null) when the state entered is final. */
  nextStepAt?: number | null;
  /** For `returned`, and only for it: the ACH return code. */
  returnCode?: string;
}

/** Records a new payment's first state, `created`: its history row and `payment.created`, with the insert. */
export async function recordPaymentCreated(db: Kysely<Database>, row: PaymentRow, at: number): Promise<void> {
  await recorded(db, row, 'created', at);
}

/**
 * Moves the payment from the state `row` shows to `to` (with its processing status; the post date when it
 * completes; the return code when returned) and records the change. Returns the row as it is after, or undefined
 * when another writer moved the payment first: then nothing is written.
 */
export async function transitionPayment(
  db: Kysely<Database>,
  row: Pick<PaymentRow, 'payment_id' | 'status'>,
  to: PaymentState,
  options: PaymentTransitionOptions,
): Promise<PaymentRow | undefined> {
  if (!allowedPaymentTransitions[row.status].includes(to)) throw new Error(`A payment cannot go from ${row.status} to ${to}.`);
  if ((to === 'returned') !== (options.returnCode !== undefined)) throw new Error('A return, and only a return, has a return code.');
  const { now } = options;
  const updated = await db
    .updateTable('payments')
    .set({
      status: to,
      processing_status: to,
      updated_at: now,
      next_step_at: finalStates.has(to) ? null : (options.nextStepAt ?? null),
      ...(to === 'completed' ? { post_date: now } : {}),
      ...(options.returnCode !== undefined ? { return_code: options.returnCode, returned_at: now } : {}),
    })
    .where('payment_id', '=', row.payment_id)
    .where('status', '=', row.status)
    .returningAll()
    .executeTakeFirst();
  if (updated) await recorded(db, updated, to, now);
  return updated;
}

async function recorded(db: Kysely<Database>, row: PaymentRow, status: PaymentState, at: number) {
  await db.insertInto('payment_status_changes').values({ payment_id: row.payment_id, status, at }).execute();
  await recordPaymentEvent(db, row, status, at);
}
