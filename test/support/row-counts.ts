// How many rows each table of a store holds: a suite compares two readings to prove that refused requests
// wrote nothing anywhere.
import { sql } from 'kysely';
import type { Store } from '../../server/platform/store/database.js';

export async function rowCounts(store: Store): Promise<Record<string, number>> {
  // rate_limits counts requests, refused ones included (on PostgreSQL): it is how a refusal is counted, not
  // something a refused request wrote. request_logs records requests, refused ones included, for the console's
  // request log (console/request-logs.ts): a refusal shows there by design.
  const tables = (await store.db.introspection.getTables())
    .map((t) => t.name)
    .filter((name) => name !== 'rate_limits' && name !== 'request_logs')
    .sort();
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}
