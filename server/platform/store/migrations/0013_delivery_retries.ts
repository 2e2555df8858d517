// Opt-in retries of failed webhook deliveries: a registration's `retries` flag, and on a failed attempt the time its
// next attempt is due (`retry_at`, null when none is), so the schedule survives a restart. Partial index: only the
// few attempts waiting for a retry are in it.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  const big = store.dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('webhooks')
        .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('retry_at', big).execute();
      await db.schema
        .createIndex('webhook_deliveries_retry')
        .on('webhook_deliveries')
        .column('retry_at')
        .where(sql.ref('retry_at'), 'is not', null)
        .execute();
    },
  };
}
