// A PostgreSQL store whose writes to one table reach the database late, as over a slow link or a busy
// server: the real pg pool and the real database, with a pause before each matching INSERT. Lets a test
// make one instance's write land after another instance's, deterministically.
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Store } from '../../server/store/database.js';
import type { Database } from '../../server/store/schema.js';
import { sleep } from './wait-until.js';

export function storeWithSlowInserts(url: string, table: string, delayMs: number): Store {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const slow: PostgresPool = {
    async connect() {
      const client = await pool.connect();
      const wrapped = {
        async query(text: string, parameters: ReadonlyArray<unknown>) {
          if (text.startsWith(`insert into "${table}"`)) await sleep(delayMs);
          return client.query(text, parameters as unknown[]);
        },
        release: () => client.release(),
      };
      return wrapped as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: slow }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
