// What the service holds of its store: one Kysely over SQLite or PostgreSQL, and which of the two it is. Apart
// from opening it (database.ts), so that what the opening runs (the migrations) can name it without a cycle.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Whether a DATABASE_URL names PostgreSQL (otherwise it is an embedded SQLite file). Here, apart from the drivers. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
