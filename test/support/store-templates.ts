// The fast tier's global setup: one migrated database per store and environment, made once per run, which
// `StoreKind.migrated` copies for each suite (stores.ts). Migrating a fresh PostgreSQL database took a quarter to
// most of a second per suite, and the tier starts dozens; copying a template takes a small part of that. Migrations
// still run here every run, and from empty in the suites that test them (`fresh`).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { Environment } from '../../server/platform/environment.js';
import { openStore } from '../../server/platform/store/database.js';

/** Where each environment's migrated template is: a SQLite file to copy, and a PostgreSQL database to name as TEMPLATE. */
export interface StoreTemplates {
  sqlite: Partial<Record<Environment, string>>;
  postgres: Partial<Record<Environment, string>>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    storeTemplates: StoreTemplates;
  }
}

const environments: Environment[] = ['sandbox', 'production'];

async function postgresAnswers(adminUrl: string | undefined): Promise<boolean> {
  if (!adminUrl) return false;
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function migrate(url: string, environment: Environment) {
  const store = await openStore(url, { environment, poolSize: 1 });
  await store.close();
}

export default async function setup(project: TestProject) {
  const templates: StoreTemplates = { sqlite: {}, postgres: {} };
  const dir = mkdtempSync(join(tmpdir(), 'payout-templates-'));
  for (const environment of environments) {
    const file = join(dir, `${environment}.sqlite`);
    await migrate(file, environment);
    templates.sqlite[environment] = file;
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  const made: string[] = [];
  if (await postgresAnswers(adminUrl)) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      for (const environment of environments) {
        const name = `payout_template_${environment}_${randomBytes(4).toString('hex')}`;
        await admin.query(`create database ${name}`);
        made.push(name);
        const url = new URL(adminUrl!);
        url.pathname = `/${name}`;
        await migrate(url.toString(), environment);
        templates.postgres[environment] = name;
      }
    } finally {
      await admin.end();
    }
  }
  project.provide('storeTemplates', templates);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (made.length === 0) return;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
