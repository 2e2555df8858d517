// compiledQuery (server/platform/store/compiled-queries.ts): a query built once per shape runs each call with that
// call's values in the places Kysely bound them, on each store; values that change the shape (an absent filter,
// a longer list) build it again. Compared with the same query built by Kysely each time.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { compiledQuery } from '../../server/platform/store/compiled-queries.js';
import type { Database } from '../../server/platform/store/schema.js';
import { stores } from '../support/stores.js';

type Values = {
  prefix: string;
  minId: number;
  names: string[] | undefined;
  createdBefore: number | undefined;
  limit: number;
};

const build = (db: Kysely<Database>, v: Values) =>
  db
    .selectFrom('merchants')
    .select(['id', 'name'])
    .where('id', '>=', v.minId)
    .$if(v.names !== undefined, (q) => q.where('name', 'in', v.names!))
    .$if(v.createdBefore !== undefined, (q) => q.where('created_at', '<', v.createdBefore!))
    .where('name', 'like', v.prefix)
    .orderBy('id')
    .limit(v.limit);

describe.each(stores)('compiledQuery on $name', (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await kind.fresh();
    drop = fresh.drop;
    store = await openStore(fresh.url);
    await store.db
      .insertInto('merchants')
      .values(Array.from({ length: 12 }, (_, i) => ({ name: `cq-${i % 3}-${i}`, created_at: 1000 + i })))
      .execute();
  });
  afterAll(async () => {
    await store.db.destroy();
    await drop();
  });

  it('reads what the query built each time reads, for every shape and every order of values', async () => {
    const run = compiledQuery(build);
    const cases: Values[] = [
      { prefix: 'cq-1%', minId: 1, names: undefined, createdBefore: undefined, limit: 10 },
      { prefix: 'cq-2%', minId: 3, names: undefined, createdBefore: undefined, limit: 2 },
      { prefix: 'cq-%', minId: 2, names: ['cq-1-4', 'cq-2-5'], createdBefore: undefined, limit: 10 },
      { prefix: 'cq-%', minId: 1, names: ['cq-0-0', 'cq-0-3', 'cq-0-6', 'cq-0-9'], createdBefore: 1008, limit: 3 },
      { prefix: 'cq-0%', minId: 5, names: undefined, createdBefore: 1010, limit: 5 },
      { prefix: 'cq-%', minId: 1, names: ['cq-1-7', 'cq-2-8'], createdBefore: undefined, limit: 1 },
    ];
    for (const v of cases) {
      const expected = await build(store.db, v).execute();
      expect(expected.length).toBeGreaterThan(0);
      expect(await run(store.db, v)).toEqual(expected);
      // Inside a transaction too (the same dialect's SQL).
      expect(await store.db.transaction().execute((trx) => run(trx, v))).toEqual(expected);
    }
  });

  it('refuses a builder that binds anything but its values (a constant, or a value made from one)', async () => {
    const constant = compiledQuery((db: Kysely<Database>, v: { minId: number }) =>
      db.selectFrom('merchants').select('id').where('id', '>=', v.minId).where('created_at', '>', 5),
    );
    await expect(constant(store.db, { minId: 1 })).rejects.toThrow(/not one of its values/);
    const derived = compiledQuery((db: Kysely<Database>, v: { prefix: string }) =>
      db.selectFrom('merchants').select('id').where('name', 'like', `${v.prefix}%`),
    );
    await expect(derived(store.db, { prefix: 'cq' })).rejects.toThrow(/not one of its values/);
  });
});
