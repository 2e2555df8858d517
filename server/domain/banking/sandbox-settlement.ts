// Settlement in the sandbox: an ACH or wire transfer is accepted `pending` (funds held), and the transfer
// engine (transfer-engine.ts) takes it one step at a time, `SANDBOX_STEP_MS` apart, as a bank's network would:
// submitted (`processing`, with the ACH trace number, the Fedwire IMAD or the SWIFT gpi UETR), then settled
// (`completed`) or rejected (`failed`), and for a returned outcome, returned a step after settling. The outcome
// is the one its amount selects (sandbox-outcomes.ts); simulations (simulations.ts) decide it instead.
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import type { BankingTransferTable, OutboundRail } from '../../platform/store/banking-schema.js';
import { bankRoutingNumber } from './routing-numbers.js';
import { transferOutcome } from './sandbox-outcomes.js';
import type { Settlement } from './transfer-engine.js';
import { transitionTransfer } from './transfer-transitions.js';

type Schemas = components['schemas'];
type Row = Selectable<BankingTransferTable>;

/** The transfer's rail details once the network has it. */
export function submitted(row: Row, now: number): { ach?: string; wire?: string } {
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

/**
 * Takes a due transfer one step towards its sandbox outcome; returns the row as it is after the step. A transfer
 * whose outcome is to stay `processing` (or that a simulation must decide) gets no next step.
 */
export const sandboxSettlement: Settlement = async (db, row, now, { stepMs }) => {
  const outcome = transferOutcome(row.type as OutboundRail, Number(row.amount_minor));
  switch (row.status) {
    case 'pending':
      return transitionTransfer(db, row, 'processing', {
        now,
        ...submitted(row, now),
        nextStepAt: outcome.status === 'processing' ? null : now + stepMs,
      });
    case 'processing':
      if (outcome.status === 'failed') return transitionTransfer(db, row, 'failed', { now, reasons: outcome.reasons });
      if (outcome.status === 'processing') return row;
      return transitionTransfer(db, row, 'completed', {
        now,
        nextStepAt: outcome.status === 'returned' ? now + stepMs : null,
      });
    case 'completed':
      if (outcome.status !== 'returned') return row;
      return transitionTransfer(db, row, 'returned', {
        now,
        reasons: outcome.reasons,
        returnCode: outcome.reasons[0]?.networkCode ?? undefined,
      });
    default:
      return row;
  }
};
