// The one way a transfer changes state: a compare-and-set on its current status, the ledger change that state
// means and the state's event (`transfer.<status>`), in the caller's transaction.
//   pending → processing (submitted to the network: trace number, IMAD or UETR assigned)
//   processing → completed (entries posted) | failed (holds voided)
//   pending → completed (book transfers, posted at once) | failed
//   completed → returned (reversing entries posted)
// failed and returned are final.
import type { Kysely, Selectable } from 'kysely';
import type { BankingTransferTable, TransferStatus } from '../../platform/store/banking-schema.js';
import type { Database } from '../../platform/store/schema.js';
import { reverseEntries, settleEntries } from './ledger.js';
import { recordTransferEvent } from './transfer-events.js';
import type { TransferReason } from './sandbox-outcomes.js';

export const allowedTransferTransitions: Readonly<Record<TransferStatus, readonly TransferStatus[]>> = {
  pending: ['processing', 'completed', 'failed'],
  processing: ['completed', 'failed'],
  completed: ['returned'],
  failed: [],
  returned: [],
};

export interface TransitionOptions {
  now: number;
  reasons?: TransferReason[];
  /** Rail details learnt in this step (JSON of the transfer's `ach` or `wire`). */
  ach?: string | null;
  wire?: string | null;
  /** When the sandbox takes the next step; null (the default) when none is due. */
  nextStepAt?: number | null;
  /** For `returned`: the network's return code. */
  returnCode?: string;
}

/** Moves the transfer from its current status to `to`, with the ledger change; throws if another writer moved it. */
export async function transitionTransfer(
  db: Kysely<Database>,
  row: Selectable<BankingTransferTable>,
  to: TransferStatus,
  options: TransitionOptions,
): Promise<Selectable<BankingTransferTable>> {
  if (!allowedTransferTransitions[row.status].includes(to)) throw new Error(`A transfer cannot go from ${row.status} to ${to}.`);
  const updated = await db
    .updateTable('banking_transfers')
    .set({
      status: to,
      updated_at: options.now,
      next_step_at: options.nextStepAt ?? null,
      ...(to === 'returned' ? { return_code: options.returnCode ?? null, returned_at: options.now } : {}),
      ...(options.reasons ? { reasons: JSON.stringify(options.reasons) } : {}),
      ...(options.ach !== undefined ? { ach: options.ach } : {}),
      ...(options.wire !== undefined ? { wire: options.wire } : {}),
    })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new Error(`Transfer ${row.id} left ${row.status} meanwhile.`);
  const id = Number(row.id);
  if (to === 'completed') await settleEntries(db, id, 'posted', options.now);
  if (to === 'failed') await settleEntries(db, id, 'voided', options.now);
  if (to === 'returned') await reverseEntries(db, id, options.now);
  await recordTransferEvent(db, updated, `transfer.${to as Exclude<TransferStatus, 'pending'>}`, options.now);
  return updated;
}
