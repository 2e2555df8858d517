// Transactions that must not overlap take turns by name (creates under a count limit, duplicates of one
// idempotency key). On PostgreSQL (read committed) a turn is a transaction-scoped advisory lock on a 64-bit
// hash of the name, held until commit or rollback, so the next one's statements see what the last committed;
// no row is locked, so other writes are not held up. SQLite needs none: the driver runs one transaction at a
// time on its one connection, and the processes sharing the file each begin theirs immediate (database.ts).
import { sql, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/** Waits until no other transaction holds the turn `name`, then holds it until this one ends. */
export async function takeTurn(trx: Transaction<Database>, dialect: Dialect, name: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
}
