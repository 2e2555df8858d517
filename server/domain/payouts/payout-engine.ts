// The payout worker: finds payouts whose next step is due and moves each one step on its rail, through the
// transitions (payout-transitions.ts: compare-and-set plus event). Due payouts are claimed as every engine claims
// its work (workers/due-work.ts): a batch per transaction, FOR UPDATE SKIP LOCKED on PostgreSQL, nothing held in
// memory, so payouts in flight when the process stops continue after a restart and instances share the work.
import type { Logger } from 'pino';
import type { Store } from '../../platform/store/database.js';
import { claimDue } from '../../platform/workers/due-work.js';
import { PollingWorker } from '../../platform/workers/polling-worker.js';
import type { PayoutRail, RailStep } from '../rails/payout-rail.js';
import type { PayoutState } from '../../platform/store/schema.js';
import { transition } from './payout-transitions.js';

export interface PayoutEngineSettings {
  /** Pause between a payout's steps (SANDBOX_STEP_MS). */
  stepMs: number;
  /** How often to look for due payouts when nothing wakes the engine. */
  pollMs: number;
  /** Payouts stepped per round. */
  batchSize: number;
  /** Pause before a round asked for during the previous one, to take a burst of new payouts together. */
  settleMs?: number;
  /** Called after each round that moved at least one payout, after its commit (the webhook dispatcher listens). */
  onProgress?: () => void;
}

export class PayoutEngine {
  private readonly worker: PollingWorker;

  constructor(
    private readonly store: Store,
    private readonly rail: PayoutRail,
    private readonly settings: PayoutEngineSettings,
    log: Logger,
  ) {
    this.worker = new PollingWorker('payout-engine', () => this.round(), settings, log);
  }

  start = (): void => this.worker.start();
  stop = (): Promise<void> => this.worker.stop();
  /** Look for due payouts now (after a creation), instead of at the next poll. */
  wake = (): void => this.worker.wake();

  /**
   * One round: steps up to batchSize due payouts, claimed and moved in one transaction (workers/due-work.ts);
   * returns how many it took. A cancel of a claimed payout waits for the round on PostgreSQL.
   */
  round(now = Date.now()): Promise<number> {
    const { batchSize, onProgress } = this.settings;
    return claimDue(this.store, 'payouts', { now, batchSize, onProgress }, async (trx, due) => {
      const accountIds = [...new Set(due.map((row) => row.account_id))];
      const accounts = new Map(
        (await trx.selectFrom('payee_accounts').select(['id', 'account_number', 'iban']).where('id', 'in', accountIds).execute()).map(
          (a) => [a.id, a],
        ),
      );
      // Payouts taking the same step (same state, next state and reasons) move together: one update, one insert.
      const steps = new Map<string, { from: PayoutState; next: RailStep; references: string[] }>();
      const held: string[] = [];
      for (const row of due) {
        const account = accounts.get(row.account_id);
        if (!account) throw new Error(`Payout ${row.reference} has no account ${row.account_id}.`);
        const next = this.rail.next(row.status, account);
        if (!next) {
          held.push(row.reference);
          continue;
        }
        const key = JSON.stringify([row.status, next.to, next.reasons ?? []]);
        const step = steps.get(key) ?? steps.set(key, { from: row.status, next, references: [] }).get(key)!;
        step.references.push(row.reference);
      }
      // What the rail holds stays in its state and is not looked at again (no step is due).
      if (held.length > 0) await trx.updateTable('payouts').set({ next_step_at: null }).where('reference', 'in', held).execute();
      let moved = 0;
      for (const { from, next, references } of steps.values()) {
        const options = { reasons: next.reasons, nextStepAt: now + this.settings.stepMs, now };
        moved += (await transition(trx, references, from, next.to, options)).length;
      }
      return moved;
    });
  }
}
