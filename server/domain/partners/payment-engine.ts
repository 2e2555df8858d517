// Moves partner payments through the payout states on the rail (the sandbox's, or none in production), as the
// payout engine moves payouts: each step through the transitions (payment-transitions.ts: a compare-and-set, the
// status history row and the `payment.<state>` events). Due payments are claimed as every engine claims its work
// (workers/due-work.ts): a batch per transaction, FOR UPDATE SKIP LOCKED on PostgreSQL, nothing held in memory; after
// a round that moved one, the webhook dispatcher is woken (`onProgress`).
import type { Logger } from 'pino';
import type { PayoutRail } from '../rails/payout-rail.js';
import type { Store } from '../../platform/store/database.js';
import { claimDue } from '../../platform/workers/due-work.js';
import { PollingWorker } from '../../platform/workers/polling-worker.js';
import { transitionPayment } from './payment-transitions.js';

export interface PaymentEngineSettings {
  /** Pause between a payment's steps (SANDBOX_STEP_MS). */
  stepMs: number;
  /** How often to look for due payments when nothing wakes the engine. */
  pollMs: number;
  /** Payments stepped per round. */
  batchSize: number;
  /** Called after a round that moved a payment, after its commit (the webhook dispatcher listens). */
  onProgress?: () => void;
}

export class PaymentEngine {
  private readonly worker: PollingWorker;

  constructor(
    private readonly store: Store,
    private readonly rail: PayoutRail,
    private readonly settings: PaymentEngineSettings,
    log: Logger,
  ) {
    this.worker = new PollingWorker('payment-engine', () => this.round(), settings, log);
  }

  start = (): void => this.worker.start();
  stop = (): Promise<void> => this.worker.stop();
  /** Look for due payments now (after a creation), instead of at the next poll. */
  wake = (): void => this.worker.wake();

  /** One round: steps up to batchSize due payments in one transaction; returns how many it took. */
  round(now = Date.now()): Promise<number> {
    const { batchSize, onProgress, stepMs } = this.settings;
    return claimDue(this.store, 'payments', { now, batchSize, onProgress }, async (trx, due) => {
      const held: number[] = [];
      let moved = 0;
      for (const row of due) {
        const next = this.rail.next(row.status, { account_number: row.account_number, iban: null });
        if (!next) held.push(row.payment_id);
        else if (await transitionPayment(trx, row, next.to, { now, nextStepAt: now + stepMs })) moved++;
      }
      // What the rail holds stays in its state and is not looked at again (no step is due).
      if (held.length > 0) await trx.updateTable('payments').set({ next_step_at: null }).where('payment_id', 'in', held).execute();
      return moved;
    });
  }
}
