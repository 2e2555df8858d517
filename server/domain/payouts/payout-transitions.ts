// The one way a payout changes state: a compare-and-set on its current state, and the event of the state
// entered, in one transaction (the outbox). When two callers race (cancel and the engine), exactly one
// update matches and the other sees no row changed.
import type { Kysely, Selectable } from 'kysely';
import { eventRow } from '../events/event-rows.js';
import { finalStates, type PayoutReason } from '../rails/payout-rail.js';
import type { Database, PayoutState, PayoutTable } from '../../platform/store/schema.js';
import { eventPayload } from './payout-views.js';

/** The states each state may move to (none from a final one): the only moves `transition` makes. */
export const allowedPayoutTransitions: Readonly<Record<PayoutState, readonly PayoutState[]>> = {
  created: ['processing', 'cancelled'],
  processing: ['sent', 'failed'],
  sent: ['completed', 'failed'],
  // The receiving bank's return of the credit, days later (an ACH return code).
  completed: ['returned'],
  failed: [],
  cancelled: [],
  returned: [],
};

type EventSource = Pick<
  PayoutTable,
  'reference' | 'merchant_id' | 'environment' | 'amount_minor' | 'currency' | 'return_code' | 'metadata'
>;

const payoutEventRow = (row: EventSource, state: PayoutState, at: number, reasons: PayoutReason[]) =>
  eventRow({
    type: `payout.${state}` as const,
    subject: row.reference,
    merchantId: row.merchant_id,
    environment: row.environment,
    at,
    body: (envelope) => eventPayload(envelope, row, state, at, reasons),
  });

/** The event of a payout's first state (`payout.created`), written with the new payout. */
export async function recordEvent(
  db: Kysely<Database>,
  row: EventSource,
  state: PayoutState,
  at: number,
  reasons: PayoutReason[],
): Promise<void> {
  await db
    .insertInto('events')
    .values(payoutEventRow(row, state, at, reasons))
    .execute();
}

/**
 * Moves the payouts named that are still in `from` to `to`, with one compare-and-set update for all of them
 * and one insert of their events: a cancel moves one, an engine round moves every payout taking the same step
 * (same state, next state and reasons) together. Returns the rows it moved; a payout another writer moved
 * first is left out, with no event. Call inside a transaction.
 */
export async function transition(
  db: Kysely<Database>,
  references: readonly string[],
  from: PayoutState,
  to: PayoutState,
  options: { reasons?: PayoutReason[]; nextStepAt: number | null; now?: number; returnCode?: string },
): Promise<Selectable<PayoutTable>[]> {
  if (!allowedPayoutTransitions[from].includes(to)) throw new Error(`A payout cannot go from ${from} to ${to}.`);
  if ((to === 'returned') !== (options.returnCode !== undefined)) throw new Error('A return, and only a return, has a return code.');
  if (references.length === 0) return [];
  const now = options.now ?? Date.now();
  const reasons = options.reasons ?? [];
  const returned = options.returnCode === undefined ? {} : { return_code: options.returnCode, returned_at: now };
  const updated = await db
    .updateTable('payouts')
    .set({
      status: to,
      reasons: JSON.stringify(reasons),
      updated_at: now,
      next_step_at: finalStates.has(to) ? null : options.nextStepAt,
      ...returned,
    })
    .where('reference', 'in', references)
    .where('status', '=', from)
    .returningAll()
    .execute();
  if (updated.length > 0)
    await db
      .insertInto('events')
      .values(updated.map((row) => payoutEventRow(row, to, now, reasons)))
      .execute();
  return updated;
}
