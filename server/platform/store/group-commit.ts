// Group commit on the embedded store: the creates that arrive together share one transaction and one commit.
//
// A commit on SQLite writes every page the transaction changed to the WAL, one write per page: a payout's
// commit (its row, its event, their indexes) cost more than the rest of its SQL (bench/README.md). Creates that
// arrive in the same turn of the event loop touch the same table and index pages, so one commit for all of them
// writes each page once. SQLite runs one transaction at a time anyway, so nothing that could have run in
// parallel waits longer. PostgreSQL commits concurrent transactions on its own connections, so there each work
// has its own transaction, as before.
//
// | case                                   | what happens                                                          |
// |----------------------------------------|-----------------------------------------------------------------------|
// | a work succeeds                        | its changes commit with the batch; its caller hears only after commit |
// | a work throws (a refusal, a conflict)  | its savepoint is rolled back: nothing of it is written; it rejects    |
// | the batch's commit fails               | nothing of the batch is written; every work rejects with that error   |
// | a work alone in its batch              | no savepoint: exactly the plain transaction                           |
//
// Works run one after another in arrival order, each seeing what the earlier ones wrote (a second request with
// the same Idempotency-Key replays the first's answer, as it would after the first committed).
import { type Kysely, type Transaction, sql } from 'kysely';
import type { Store } from './database.js';
import type { Database } from './schema.js';

/** At most this many works share a commit, so that a burst cannot make one transaction (and its wait) long. */
const maxBatch = 64;

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

class Batcher {
  private readonly queue: Pending[] = [];
  private scheduled = false;
  private running = false;

  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Starts a batch after this turn of the event loop, so that every create this turn made ready joins it. */
  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, maxBatch));
    } finally {
      this.running = false;
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        if (batch.length === 1) {
          try {
            outcomes.push({ ok: true, value: await batch[0]!.work(trx) });
          } catch (error) {
            outcomes.push({ ok: false, error });
            throw error;
          }
          return;
        }
        for (const { work } of batch) {
          await sql`savepoint group_commit`.execute(trx);
          try {
            const value = await work(trx);
            await sql`release group_commit`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            outcomes.push({ ok: false, error });
            await sql`rollback to group_commit`.execute(trx);
            await sql`release group_commit`.execute(trx);
          }
        }
      });
    } catch (error) {
      // Nothing of the batch was kept: a work that had succeeded hears why; one that failed, its own reason.
      batch.forEach((item, i) => {
        const outcome = outcomes[i];
        item.reject(outcome && !outcome.ok ? outcome.error : error);
      });
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}

const batchers = new WeakMap<Kysely<Database>, Batcher>();

/** Runs `work` in a transaction: on SQLite one shared with the other works of this turn (see above). */
export function inGroupCommit<T>(store: Store, work: Work<T>): Promise<T> {
  if (store.dialect !== 'sqlite') return store.db.transaction().execute(work);
  let batcher = batchers.get(store.db);
  if (!batcher) {
    batcher = new Batcher(store.db);
    batchers.set(store.db, batcher);
  }
  return batcher.run(work);
}
