// Two changes for the dispatcher and the limits on a busy PostgreSQL store; nothing on SQLite.
// - `events_pending_subject`: the pending events of each subject, by id. The dispatcher's round asks, for each
//   pending event it walks, whether an earlier one of its subject is still pending (webhooks/pending-events.ts); this
//   index answers that from the few pending events of that one subject, where `events_subject` holds every event
//   the subject ever had and `events_pending` every pending event of every subject. SQLite answers it from
//   `events_subject` (a payout has at most five events): there the index cost each create about 20 µs of CPU (one
//   more B-tree written with each event, and again when it is dispatched) for no gain the bench could see.
// - `rate_limits` becomes UNLOGGED: a count is not written to the write-ahead log, so the per-request
//   count does not wait for a log flush. Counts are windows of at most a minute or an hour; after a crash of the
//   database they start again from zero (and a standby does not have them), which costs a caller at most one
//   window's budget again, never a payment.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (store.dialect !== 'postgres') return;
      await db.schema
        .createIndex('events_pending_subject')
        .on('events')
        .columns(['subject', 'id'])
        .where(sql.ref('dispatched_at'), 'is', null)
        .execute();
      await sql`alter table rate_limits set unlogged`.execute(db);
    },
  };
}
