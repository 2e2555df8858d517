// Moves partner payments through the payout states on the rail (the sandbox's, or none in production), as the
// payout engine moves payouts: one compare-and-set per step, each step recorded in the payment's status history with its
// `payment.<state>` event (payment-events.ts); the post date is set when a payment completes. Claims rows with FOR UPDATE SKIP LOCKED on PostgreSQL.
import type { Logger } from 'pino';
import type { Environment } from '../environment.js';
import { finalStates, type PayoutRail } from '../rails/payout-rail.js';
import type { Store } from '../store/database.js';
import type { PayoutState } from '../store/schema.js';
import { PollingWorker } from '../workers/polling-worker.js';
import { recordPaymentChange } from './payment-events.js';

export class PaymentEngine {
  private readonly worker: PollingWorker;

  constructor(
    private readonly store: Store,
    private readonly rail: PayoutRail,
    private readonly settings: { stepMs: number; pollMs: number; batchSize: number; environment: Environment },
    log: Logger,
  ) {
    this.worker = new PollingWorker('payment-engine', () => this.round(), settings, log);
  }

  start = (): void => this.worker.start();
  stop = (): Promise<void> => this.worker.stop();
  wake = (): void => this.worker.wake();

  async round(now = Date.now()): Promise<number> {
    const due = await this.store.db
      .selectFrom('payments')
      .select('payment_id')
      .where('next_step_at', 'is not', null)
      .where('next_step_at', '<=', now)
      .orderBy('next_step_at')
      .limit(this.settings.batchSize)
      .execute();
    for (const { payment_id } of due) await this.step(Number(payment_id), now);
    return due.length;
  }

  private async step(paymentId: number, now: number): Promise<void> {
    await this.store.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('payments').selectAll().where('payment_id', '=', paymentId).where('next_step_at', '<=', now);
      if (this.store.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const row = await query.executeTakeFirst();
      if (!row) return;
      const next = this.rail.next(row.status as PayoutState, { account_number: row.account_number, iban: null });
      if (!next) {
        // Held by the rail: it stays in its state and is not looked at again (no step is due).
        await trx.updateTable('payments').set({ next_step_at: null }).where('payment_id', '=', paymentId).execute();
        return;
      }
      const final = finalStates.has(next.to);
      const updated = await trx
        .updateTable('payments')
        .set({
          status: next.to,
          processing_status: next.to,
          updated_at: now,
          next_step_at: final ? null : now + this.settings.stepMs,
          ...(next.to === 'completed' ? { post_date: now } : {}),
        })
        .where('payment_id', '=', paymentId)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (updated) await recordPaymentChange(trx, updated, next.to, now, this.settings.environment);
    });
  }
}
