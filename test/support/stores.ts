// The stores every service suite runs on: SQLite always; PostgreSQL when TEST_DATABASE_URL names a server
// that answers (.ci/run points it at the machine's), each suite in a database of its own.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Environment } from '../../server/platform/environment.js';

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database URL; `drop` removes it when the suite ends. */
  fresh(): Promise<{ url: string; drop(): Promise<void> }>;
  /** Like `fresh`, but already migrated as a service of `environment` would migrate it: a copy of the run's template
   * (store-templates.ts); without one (a tier without that setup), a fresh database the service migrates. */
  migrated(environment: Environment): Promise<{ url: string; drop(): Promise<void> }>;
}

/** The run's migrated templates, when the tier's global setup made them. */
const template = (store: 'sqlite' | 'postgres', environment: Environment): string | undefined =>
  inject('storeTemplates')?.[store][environment];

const sqlite: StoreKind = {
  name: 'sqlite',
  async fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'payout-test-'));
    // The whole directory goes: the store file with its -wal and -shm files.
    return { url: join(dir, 'store.sqlite'), drop: () => rm(dir, { recursive: true, force: true }) };
  },
  async migrated(environment) {
    const db = await sqlite.fresh();
    const from = template('sqlite', environment);
    if (from) await copyFile(from, db.url);
    return db;
  },
};

const adminUrl = process.env.TEST_DATABASE_URL;

async function postgresAnswers(): Promise<boolean> {
  if (!adminUrl) return false;
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const postgres: StoreKind = {
  name: 'postgres',
  fresh: () => createDatabase(),
  migrated: (environment) => createDatabase(template('postgres', environment)),
};

async function createDatabase(from?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `payout_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${from ? ` template ${from}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // A pool's end() resolves before its connections have closed: forcing the drop at once would end them
      // mid-close, and a pool without an error listener throws that in the suite. Wait (bounded) for the
      // suite's own sessions to go; force only what a failed suite left open.
      for (let tries = 0; tries < 50; tries++) {
        const { rows } = await c.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
        if (Number(rows[0]!.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export const postgresAvailable = await postgresAnswers();
if (!postgresAvailable) {
  console.warn(`PostgreSQL store tests skipped: ${adminUrl ? `no server answers at TEST_DATABASE_URL` : 'TEST_DATABASE_URL is not set'}.`);
}

/** The stores to run a suite on: use with describe.each(stores). */
export const stores: StoreKind[] = postgresAvailable ? [sqlite, postgres] : [sqlite];
