// The limits shared by instances on PostgreSQL (limits/limits.ts): one row per key and window, the columns and
// their order rate-limiter-flexible's PostgreSQL limiter writes (key, points, expire: epoch milliseconds), created
// here rather than by the library at run time. The embedded store keeps its limits in memory; the table is made
// there too so that both stores keep one schema.
import type { Kysely, Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  const big = store.dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('expire', big)
        .execute();
    },
  };
}
