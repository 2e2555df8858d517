// How every engine claims its due work (payouts, payments, transfers): the rows whose next step is due, oldest step
// first, a batch of them in one transaction, stepped in that transaction and committed once (commits are what a
// store does slowest). On PostgreSQL the batch is claimed FOR UPDATE SKIP LOCKED, so instances on one database take
// disjoint batches, and a caller's compare-and-set on a claimed row (a cancel) waits for the round and then sees
// the state the round left. Nothing is held in memory: work in flight when a process stops is due again after a
// restart. After a round that moved something (and so wrote events), `onProgress` runs, after the commit: the
// webhook dispatcher is woken then, not at its next poll.
//
// A step that throws rolls its whole batch back. So that one row that always fails (bad data, a bug) cannot hold
// every other merchant's work behind it for good, a failed batch is taken again one row at a time, each in its own
// transaction: the rows that step alone move on, and a row that fails alone too is put off by `failedStepDelayMs`
// (its state untouched) and the failure is thrown once the others are done, for the worker to log.
import type { Selectable, Transaction } from 'kysely';
import type { Store } from '../store/database.js';
import type { Database } from '../store/schema.js';

/** The tables an engine steps: each has `next_step_at`, null when no step is due. */
export type SteppedTable = 'payouts' | 'payments' | 'banking_transfers';

/** Each stepped table's key, by which a row of a failed batch is taken again alone. */
const keyOf = { payouts: 'reference', payments: 'payment_id', banking_transfers: 'id' } as const;

/** How long a row whose step failed on its own waits before it is tried again. */
export const failedStepDelayMs = 60_000;

export interface DueWork {
  /** The engine's clock: rows due by then are taken. */
  now: number;
  /** Rows taken per round. */
  batchSize: number;
  /** Called after the commit of a round whose step reported moving at least one row. */
  onProgress?: () => void;
}

type Step<T extends SteppedTable> = (trx: Transaction<Database>, due: Selectable<Database[T]>[]) => Promise<number>;

/**
 * Claims up to `batchSize` rows of `table` due by `now` and hands them to `step`, in one transaction; `step`
 * returns how many of them it moved (changed state, writing events). Returns how many rows were taken, which a
 * `PollingWorker` compares with the batch size to know whether more are waiting.
 */
export async function claimDue<T extends SteppedTable>(store: Store, table: T, work: DueWork, step: Step<T>): Promise<number> {
  let moved = 0;
  let keys: unknown[] = [];
  try {
    const taken = await store.db.transaction().execute(async (trx) => {
      const due = await claim(store, trx, table, work);
      keys = due.map((row) => (row as Record<string, unknown>)[keyOf[table]]);
      if (due.length > 0) moved = await step(trx, due);
      return due.length;
    });
    if (moved > 0) work.onProgress?.();
    return taken;
  } catch (err) {
    if (keys.length <= 1) {
      if (keys.length === 1) await putOff(store, table, keys[0], work.now);
      throw err;
    }
    return oneByOne(store, table, work, step, keys, err);
  }
}

/** A failed batch, taken again row by row: each row that steps alone moves on; each that fails alone is put off. */
async function oneByOne<T extends SteppedTable>(
  store: Store,
  table: T,
  work: DueWork,
  step: Step<T>,
  keys: unknown[],
  batchFailure: unknown,
): Promise<number> {
  let moved = 0;
  const failures: unknown[] = [];
  for (const key of keys) {
    try {
      moved += await store.db.transaction().execute(async (trx) => {
        const due = await claim(store, trx, table, work, key);
        return due.length > 0 ? step(trx, due) : 0;
      });
    } catch (err) {
      failures.push(err);
      await putOff(store, table, key, work.now);
    }
  }
  if (moved > 0) work.onProgress?.();
  if (failures.length > 0)
    throw new AggregateError(
      failures,
      `${failures.length} of ${keys.length} ${table} failed their step on their own and wait ${failedStepDelayMs} ms`,
      {
        cause: batchFailure,
      },
    );
  return keys.length;
}

/** The due rows a round takes (or the one row of that key, if still due), locked on PostgreSQL. */
async function claim<T extends SteppedTable>(store: Store, trx: Transaction<Database>, table: T, work: DueWork, key?: unknown) {
  // One query for the three tables: typed as the payouts' (every one of them has next_step_at), rows as T's.
  let query = trx
    .selectFrom(table as SteppedTable as 'payouts')
    .selectAll()
    .where('next_step_at', 'is not', null)
    .where('next_step_at', '<=', work.now)
    .orderBy('next_step_at')
    .limit(work.batchSize);
  if (key !== undefined) query = query.where(keyOf[table] as 'reference', '=', key as string);
  if (store.dialect === 'postgres') query = query.forUpdate().skipLocked();
  return (await query.execute()) as unknown as Selectable<Database[T]>[];
}

/** A row whose step failed alone: due again after a while, in the state it was (a step that moved it is not undone). */
async function putOff(store: Store, table: SteppedTable, key: unknown, now: number): Promise<void> {
  await store.db
    .updateTable(table as SteppedTable as 'payouts')
    .set({ next_step_at: now + failedStepDelayMs })
    .where(keyOf[table] as 'reference', '=', key as string)
    .where('next_step_at', 'is not', null)
    .where('next_step_at', '<=', now)
    .execute();
}
