// The stores a benchmark runs on: the embedded SQLite store in a fresh temp directory, and PostgreSQL in a
// fresh database of its own on the server BENCH_DATABASE_URL (or TEST_DATABASE_URL) names, dropped after.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchStore {
  kind: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

export function embeddedStore(): BenchStore {
  const dir = mkdtempSync(join(tmpdir(), 'payout-bench-'));
  return { kind: 'sqlite', url: join(dir, 'store.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const adminUrl = () => process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh PostgreSQL database, or the reason there is none (no URL set, or no server answers). */
export async function postgresStore(): Promise<BenchStore | { skipped: string }> {
  if (!adminUrl()) return { skipped: 'neither BENCH_DATABASE_URL nor TEST_DATABASE_URL is set' };
  const name = `payout_bench_${randomBytes(6).toString('hex')}`;
  try {
    await withAdmin((c) => c.query(`create database ${name}`));
  } catch (err) {
    return { skipped: `no PostgreSQL answers at ${new URL(adminUrl()!).host} (${(err as Error).message})` };
  }
  const url = new URL(adminUrl()!);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/** A part's runs, one a store; `skipped` says why PostgreSQL has none. */
export interface RunsOnEachStore<Run> {
  runs: Run[];
  skipped?: string;
}

/**
 * A part's runs on each store in turn, the embedded one then PostgreSQL, each fresh and dropped after; each run
 * is logged as `describe` says. Without a PostgreSQL server the result holds the embedded run and why.
 */
export async function onEachStore<Run>(
  runOn: (store: BenchStore) => Promise<Run>,
  describe: (run: Run) => string,
): Promise<RunsOnEachStore<Run>> {
  const runs: Run[] = [];
  for (const open of [async () => embeddedStore(), postgresStore]) {
    const store = await open();
    if ('skipped' in store) {
      console.log(`  PostgreSQL skipped: ${store.skipped}`);
      return { runs, skipped: `PostgreSQL: ${store.skipped}` };
    }
    try {
      const run = await runOn(store);
      console.log(describe(run));
      runs.push(run);
    } finally {
      await store.drop();
    }
  }
  return { runs };
}
