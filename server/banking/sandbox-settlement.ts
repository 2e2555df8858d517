// Settlement in the sandbox: an ACH or wire transfer is submitted and settled within the request that
// created it, walking the transfer's life cycle to the outcome its amount selects (sandbox-outcomes.ts), so
// the 201 carries the final state. Submission assigns what the network would: an ACH trace number, a
// Fedwire IMAD or a SWIFT gpi UETR.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../generated/banking/schema.js';
import type { BankingTransferTable } from '../store/banking-schema.js';
import type { Database } from '../store/schema.js';
import { bankRoutingNumber } from './routing-numbers.js';
import type { TransferOutcome } from './sandbox-outcomes.js';
import { transitionTransfer } from './transfer-transitions.js';

type Schemas = components['schemas'];

/** The transfer's rail details once the network has it. */
function submitted(row: Selectable<BankingTransferTable>, now: number): { ach?: string; wire?: string } {
  const id = Number(row.id);
  if (row.ach !== null) {
    const ach = JSON.parse(row.ach) as Schemas['AchTransferDetails'];
    // Trace number: the originating bank's first 8 routing digits and a 7-digit sequence.
    return { ach: JSON.stringify({ ...ach, traceNumber: bankRoutingNumber.slice(0, 8) + String(id % 10_000_000).padStart(7, '0') }) };
  }
  if (row.wire !== null) {
    const wire = JSON.parse(row.wire) as Schemas['WireTransferDetails'];
    if (row.type === 'WIRE_DOMESTIC') {
      // IMAD: input cycle date, the sender's source id, and a 6-digit sequence.
      const date = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
      return { wire: JSON.stringify({ ...wire, imad: `${date}B1QGC01C${String(id % 1_000_000).padStart(6, '0')}` }) };
    }
    return { wire: JSON.stringify({ ...wire, uetr: randomUUID() }) };
  }
  return {};
}

/** Takes a pending ACH or wire transfer to the sandbox outcome; returns the row as it ends. */
export async function settleInSandbox(
  db: Kysely<Database>,
  pending: Selectable<BankingTransferTable>,
  outcome: TransferOutcome,
  now: number,
): Promise<Selectable<BankingTransferTable>> {
  let row = await transitionTransfer(db, pending, 'processing', { now, ...submitted(pending, now) });
  switch (outcome.status) {
    case 'processing':
      return row;
    case 'failed':
      return transitionTransfer(db, row, 'failed', { now, reasons: outcome.reasons });
    case 'completed':
      return transitionTransfer(db, row, 'completed', { now });
    case 'returned':
      row = await transitionTransfer(db, row, 'completed', { now });
      return transitionTransfer(db, row, 'returned', { now, reasons: outcome.reasons });
  }
}
