// The transfer worker: finds transfers whose next step is due and takes each one step on its settlement (the
// sandbox's bank, sandbox-settlement.ts, which changes state only through transfer-transitions.ts; none in
// production). Due transfers are claimed as every engine claims its work (workers/due-work.ts): a batch per
// transaction, FOR UPDATE SKIP LOCKED on PostgreSQL, nothing held in memory. A batch is stepped in the order of the
// accounts it changes, the order every debit locks accounts in, so the engine and a new transfer never wait on each
// other in a cycle.
import type { Kysely, Selectable } from 'kysely';
import type { Logger } from 'pino';
import type { BankingTransferTable } from '../../platform/store/banking-schema.js';
import type { Store } from '../../platform/store/database.js';
import type { Database } from '../../platform/store/schema.js';
import { claimDue } from '../../platform/workers/due-work.js';
import { PollingWorker } from '../../platform/workers/polling-worker.js';

type Row = Selectable<BankingTransferTable>;

/** What takes a due transfer its next step, in the engine's transaction; returns the row as it is after. */
export type Settlement = (db: Kysely<Database>, row: Row, now: number, settings: { stepMs: number }) => Promise<Row>;

/** Production's settlement in this build, which has no adapter to a real bank's network: the transfer stays in its
 * state and no step is due (openapi/DECISIONS.md, "Production without a rail"). */
export const noSettlement: Settlement = (db, row) =>
  db.updateTable('banking_transfers').set({ next_step_at: null }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();

export interface TransferEngineSettings {
  /** Pause between a transfer's steps (SANDBOX_STEP_MS). */
  stepMs: number;
  pollMs: number;
  batchSize: number;
  /** Called after a round that moved a transfer, after its commit (the webhook dispatcher listens). */
  onProgress?: () => void;
}

export class TransferEngine {
  private readonly worker: PollingWorker;

  constructor(
    private readonly store: Store,
    private readonly settlement: Settlement,
    private readonly settings: TransferEngineSettings,
    log: Logger,
  ) {
    this.worker = new PollingWorker('transfer-engine', () => this.round(), settings, log);
  }

  start = (): void => this.worker.start();
  stop = (): Promise<void> => this.worker.stop();
  /** Look for due transfers now (after a creation), instead of at the next poll. */
  wake = (): void => this.worker.wake();

  /**
   * One round: steps up to batchSize due transfers, claimed and stepped in one transaction (workers/due-work.ts);
   * returns how many it took. The dispatcher is woken when a step moved a transfer (and wrote its event).
   */
  round(now = Date.now()): Promise<number> {
    const { batchSize, onProgress } = this.settings;
    return claimDue(this.store, 'banking_transfers', { now, batchSize, onProgress }, async (trx, due) => {
      due.sort((a, b) => Number(a.account_id) - Number(b.account_id) || Number(a.id) - Number(b.id));
      let moved = 0;
      for (const row of due) if ((await this.settlement(trx, row, now, this.settings)).status !== row.status) moved++;
      return moved;
    });
  }
}
