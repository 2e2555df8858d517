// PostgreSQL statements are sent named once the store is migrated (server/platform/store/pg-named-statements.ts):
// the connection holds them prepared and runs them again without parsing. Not before the migrations, and not when
// DATABASE_NAMED_STATEMENTS=false (a pooler in transaction mode). The service's suites on PostgreSQL all run with it.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config.js';
import { openStore } from '../../server/platform/store/database.js';
import { stores } from '../support/stores.js';

const postgres = stores.find((s) => s.name === 'postgres');

describe.skipIf(!postgres)('named statements on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await postgres!.fresh();
  });
  afterAll(() => database?.drop());

  /** Runs a parameterised read twice on a store of one connection; the statements that connection holds prepared. */
  async function preparedAfterReads(options: Parameters<typeof openStore>[1]): Promise<string[]> {
    const store = await openStore(database.url, { ...options, poolSize: 1 });
    try {
      for (let i = 0; i < 2; i++)
        await store.db.selectFrom('payees').select('id').where('merchant_id', '=', 1).where('id', '=', i).execute();
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db);
      return rows.map((r) => r.statement);
    } finally {
      await store.close();
    }
  }

  it('prepares a read once a migrated store runs it', async () => {
    const prepared = await preparedAfterReads({});
    expect(prepared.filter((s) => s.includes('from "payees"'))).toHaveLength(1);
  });

  it('names nothing when turned off, or before the store is migrated', async () => {
    expect(await preparedAfterReads({ namedStatements: false })).toEqual([]);
    expect(await preparedAfterReads({ migrate: false })).toEqual([]);
  });

  it('is on by default and turned off by DATABASE_NAMED_STATEMENTS=false', () => {
    expect(loadConfig({}).databaseNamedStatements).toBe(true);
    expect(loadConfig({ DATABASE_NAMED_STATEMENTS: 'false' }).databaseNamedStatements).toBe(false);
  });
});
