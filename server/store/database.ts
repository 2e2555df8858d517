// Opens the store: SQLite (better-sqlite3, WAL) for a file path or `sqlite:` URL, PostgreSQL (pg) for a
// `postgres://` URL. Both behind one Kysely instance and one set of migrations, applied on open.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import { migrateToLatest } from './migrate.js';
import { loadPg } from './pg-driver.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

// Kysely prepares every query it runs anew, which costs more than running a short one. The service sends the
// same few hundred SQL texts over and over, so each is prepared once and its statement reused (SQLite
// re-prepares a statement itself after a schema change). Kysely runs one query at a time on the connection.
const statementCacheSize = 1000;

function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export async function openStore(url: string, options: { migrate?: boolean; poolSize?: number } = {}): Promise<Store> {
  let store: Store;
  if (isPostgresUrl(url)) {
    const pg = await loadPg();
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
    // An idle connection the server drops (restart, failover, admin shutdown) is discarded by the pool and
    // replaced on the next query; unhandled, the pool's error event would end the process.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    store = { db, dialect: 'postgres', close: () => db.destroy() };
  } else {
    const file = url.replace(/^sqlite:(\/\/)?/, '');
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // A checkpoint runs inside a commit, on the event loop, and waits for fsync: every 1,000 pages (the
    // default) stalls writes often. Every 10,000 pages (a WAL of about 40 MB) stalls them a tenth as often,
    // and pages written many times in between (index leaves) are copied once. A 64 MB page cache keeps the
    // indexes of a large store in memory.
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma('cache_size = -65536');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    store = { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  if (options.migrate !== false) await migrateToLatest(store);
  return store;
}
