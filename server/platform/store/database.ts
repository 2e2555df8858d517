// Opens the store: SQLite (better-sqlite3, WAL) for a file path or `sqlite:` URL, PostgreSQL (pg) for a
// `postgres://` URL. Both behind one Kysely instance and one set of migrations, applied on open.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Dialect as KyselyDialect, Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { registerCaseFolding } from './case-folding.js';
import type { Environment } from '../environment.js';
import { migrateToLatest } from './migrate.js';
import { loadPg } from './pg-driver.js';
import { withNamedStatements } from './pg-named-statements.js';
import type { Database } from './schema.js';
import { withWellFormedParameters } from './well-formed-parameters.js';

import type { Store } from './store.js';
import { isPostgresUrl } from './store.js';

export type { Dialect, Store } from './store.js';
export { isPostgresUrl };

// Kysely prepares every query it runs anew, which costs more than running a short one. The service sends the
// same few hundred SQL texts over and over, so each is prepared once and its statement reused (SQLite
// re-prepares a statement itself after a schema change). Kysely runs one query at a time on the connection.
const statementCacheSize = 1000;

type Row = Record<string, unknown>;

/** A function that makes a row object from a row's values, for one list of column names. */
function rowBuilder(columns: string[]): (values: unknown[]) => Row {
  // better-sqlite3 builds each row object key by key through the engine's API: for a page of wide rows that is
  // half the read (bench/README.md). Rows read as arrays and made by an object literal of the statement's
  // columns cost half as much, and every row of a statement gets the same shape. A later duplicate name wins,
  // as in better-sqlite3's own objects.
  if (columns.some((c) => c === '__proto__')) {
    return (values) => Object.fromEntries(columns.map((c, i) => [c, values[i]]));
  }
  const fields = columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: unknown[]) => Row;
}

/** A reading statement that returns its rows as objects, made from the values better-sqlite3 returns as arrays. */
function arrayReader(statement: SQLite.Statement): SqliteStatement {
  const raw = statement.raw(true);
  let columns = raw.columns().map((c) => c.name);
  let build = rowBuilder(columns);
  return {
    reader: true,
    all(parameters) {
      const rows = waitingForLock(raw, 'all', parameters) as unknown[][];
      // A schema change since the columns were read (SQLite re-prepares the statement): read them again.
      if (rows.length > 0 && rows[0]!.length !== columns.length) {
        columns = raw.columns().map((c) => c.name);
        build = rowBuilder(columns);
      }
      return rows.map(build);
    },
    run: (parameters) => waitingForLock(raw, 'run', parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield build(values);
    },
  };
}

interface StatementCache extends SqliteDatabase {
  /** Forgets every statement: after migrations, whose schema changes the cached column lists may not know. */
  clear(): void;
}

function withStatementCache(sqlite: SQLite.Database): StatementCache {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    clear: () => statements.clear(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = sqlite.prepare(sql);
        statement = prepared.reader ? arrayReader(prepared) : writer(prepared);
        if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite transactions that take the write lock as they begin. Several processes of one service share the file
 * (README, "Processes"): a transaction begun deferred reads first, and when another process commits before it
 * writes, SQLite refuses its first write at once (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out). Begun
 * immediate, it waits until no other process writes, then holds the lock to its end: transactions of all
 * processes run one at a time, as those of one process always did, which is what the compare-and-set
 * transitions, the count limits and the idempotency keys rely on. Reads outside a transaction never wait (WAL).
 */
function withImmediateTransactions(dialect: SqliteDialect, statements: StatementCache): KyselyDialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      driver.beginTransaction = async () => {
        statements.prepare('begin immediate').run([]);
      };
      return driver;
    },
  };
}

const busyTimeoutMs = 5000;
const lockPauses = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs a statement, asking again every 50 µs while another process holds the write lock (SQLITE_BUSY), for up to
 * 5 s. The connection has no busy timeout: SQLite's own busy handler sleeps 1, 2, 5, 10, 15, 20, 25, ... 100 ms
 * between its tries, so a process whose transactions last a few milliseconds kept the lock while the other slept
 * (waits of 0.2 s, bench/README.md, "Every core"). Asking this often hands the lock over within 50 µs of its
 * release. The process waits inside the call, as it did in SQLite's handler. Only `begin immediate` and writes
 * outside a transaction meet the lock; a statement that finds it free costs no more than before.
 */
function waitingForLock<M extends 'all' | 'run'>(
  statement: SQLite.Statement,
  method: M,
  parameters: readonly unknown[],
): ReturnType<SQLite.Statement[M]> {
  // The statement and its method are passed rather than a closure: this runs for every statement.
  let deadline: number | undefined;
  for (;;) {
    try {
      return statement[method](parameters) as ReturnType<SQLite.Statement[M]>;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      deadline ??= performance.now() + busyTimeoutMs;
      if (performance.now() > deadline) throw error;
    }
    Atomics.wait(lockPauses, 0, 0, 0.05);
  }
}

/** A statement that writes (or returns nothing), run as waitingForLock says. */
function writer(statement: SQLite.Statement): SqliteStatement {
  return {
    reader: false,
    all: (parameters) => waitingForLock(statement, 'all', parameters),
    run: (parameters) => waitingForLock(statement, 'run', parameters),
    iterate: (parameters) => statement.iterate(parameters),
  };
}

export async function openStore(
  url: string,
  options: {
    migrate?: boolean;
    poolSize?: number;
    environment?: Environment;
    /** PostgreSQL: send statements named, parsed once per connection (pg-named-statements.ts). Default true. */
    namedStatements?: boolean;
  } = {},
): Promise<Store> {
  let store: Store;
  let statements: StatementCache | undefined;
  let afterMigrating: (() => void) | undefined;
  if (isPostgresUrl(url)) {
    const pg = await loadPg();
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
    // An idle connection the server drops (restart, failover, admin shutdown) is discarded by the pool and
    // replaced on the next query; unhandled, the pool's error event would end the process.
    pool.on('error', () => {});
    const named = options.namedStatements === false ? undefined : withNamedStatements(pool);
    const db = new Kysely<Database>({ dialect: withWellFormedParameters(new PostgresDialect({ pool: named?.pool ?? pool })) });
    store = { db, dialect: 'postgres', close: () => db.destroy() };
    afterMigrating = named?.enable;
  } else {
    const file = url.replace(/^sqlite:(\/\/)?/, '');
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    registerCaseFolding(sqlite);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 0'); // waitingForLock waits instead
    sqlite.pragma('foreign_keys = ON');
    // A checkpoint runs inside a commit, on the event loop, and waits for fsync: every 1,000 pages (the
    // default) stalls writes often. Every 10,000 pages (a WAL of about 40 MB) stalls them a tenth as often,
    // and pages written many times in between (index leaves) are copied once. A 16 MB page cache per
    // connection: under a steady stream of creates SQLite's cache fills with the pages they wrote (about 5 MB a
    // second at 3,500 creates/s), so its size is what the process holds above its heap; a page it no longer holds
    // is a read from the OS's cache (bench/README.md, "Third round").
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma('cache_size = -16384');
    statements = withStatementCache(sqlite);
    const db = new Kysely<Database>({
      dialect: withWellFormedParameters(withImmediateTransactions(new SqliteDialect({ database: statements }), statements)),
    });
    store = { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  if (options.migrate !== false) {
    await migrateToLatest(store, undefined, { environment: options.environment ?? 'sandbox' });
    statements?.clear();
    afterMigrating?.();
  }
  return store;
}
