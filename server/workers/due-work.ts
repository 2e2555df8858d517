// How every engine claims its due work (payouts, payments, transfers): the rows whose next step is due, oldest step
// first, a batch of them in one transaction, stepped in that transaction and committed once (commits are what a
// store does slowest). On PostgreSQL the batch is claimed FOR UPDATE SKIP LOCKED, so instances on one database take
// disjoint batches, and a caller's compare-and-set on a claimed row (a cancel) waits for the round and then sees
// the state the round left. Nothing is held in memory: work in flight when a process stops is due again after a
// restart. After a round that moved something (and so wrote events), `onProgress` runs, after the commit: the
// webhook dispatcher is woken then, not at its next poll.
import type { Selectable, Transaction } from 'kysely';
import type { Store } from '../store/database.js';
import type { Database } from '../store/schema.js';

/** The tables an engine steps: each has `next_step_at`, null when no step is due. */
export type SteppedTable = 'payouts' | 'payments' | 'banking_transfers';

export interface DueWork {
  /** The engine's clock: rows due by then are taken. */
  now: number;
  /** Rows taken per round. */
  batchSize: number;
  /** Called after the commit of a round whose step reported moving at least one row. */
  onProgress?: () => void;
}

/**
 * Claims up to `batchSize` rows of `table` due by `now` and hands them to `step`, in one transaction; `step`
 * returns how many of them it moved (changed state, writing events). Returns how many rows were taken, which a
 * `PollingWorker` compares with the batch size to know whether more are waiting.
 */
export async function claimDue<T extends SteppedTable>(
  store: Store,
  table: T,
  work: DueWork,
  step: (trx: Transaction<Database>, due: Selectable<Database[T]>[]) => Promise<number>,
): Promise<number> {
  let moved = 0;
  const taken = await store.db.transaction().execute(async (trx) => {
    // One query for the three tables: typed as the payouts' (every one of them has next_step_at), rows as T's.
    let query = trx
      .selectFrom(table as SteppedTable as 'payouts')
      .selectAll()
      .where('next_step_at', 'is not', null)
      .where('next_step_at', '<=', work.now)
      .orderBy('next_step_at')
      .limit(work.batchSize);
    if (store.dialect === 'postgres') query = query.forUpdate().skipLocked();
    const due = (await query.execute()) as unknown as Selectable<Database[T]>[];
    if (due.length > 0) moved = await step(trx, due);
    return due.length;
  });
  if (moved > 0) work.onProgress?.();
  return taken;
}
