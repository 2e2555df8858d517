// A PostgreSQL store whose writes to one table reach the database late, as over a slow link or a busy
// server: the real pg pool and the real database, with each matching INSERT held until the test lets it
// through. Lets a test make one instance's write land after another instance's, deterministically.
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Store } from '../../server/platform/store/database.js';
import type { Database } from '../../server/platform/store/schema.js';

export interface LateInserts {
  store: Store;
  /** Resolves once an INSERT into the table is held: the store's owner is writing. */
  held: Promise<void>;
  /** Lets the held INSERT (and every later one) through. */
  release(): void;
}

export function storeWithLateInserts(url: string, table: string): LateInserts {
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {}); // as the store's own pool: a connection the server ends is dropped, not thrown
  const late: PostgresPool = {
    async connect() {
      const client = await pool.connect();
      const wrapped = {
        async query(text: string, parameters: ReadonlyArray<unknown>) {
          if (text.startsWith(`insert into "${table}"`)) {
            reached();
            await released;
          }
          return client.query(text, parameters as unknown[]);
        },
        release: () => client.release(),
      };
      return wrapped as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: late }) });
  const close = () => {
    release(); // a test that failed before letting it through still closes
    return db.destroy();
  };
  return { store: { db, dialect: 'postgres', close }, held, release };
}
