// Scale out, at start: instances starting together on one empty PostgreSQL must settle on one token
// signing key, or a token one instance issues is refused by the other (behind a load balancer: random
// 401s). Here instance B starts first but its key reaches the database late (a slow link, a busy server,
// or a host whose clock is behind); instance A starts in that window, and B's key lands only once A is
// waiting for B (or, were there no turns, has settled on a key of its own). PostgreSQL only.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from '../../server/domain/auth/signing-keys.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { postgresAvailable, stores } from '../support/stores.js';
import { storeWithLateInserts } from './slow-writes-store.js';
import { waitUntil } from './wait-until.js';

const postgres = stores.find((kind) => kind.name === 'postgres');
const title = postgresAvailable
  ? 'two instances starting together'
  : 'two instances starting together (skipped: needs PostgreSQL, set TEST_DATABASE_URL)';

describe.skipIf(!postgresAvailable)(title, () => {
  let db: { url: string; drop(): Promise<void> } | undefined;
  const opened: Store[] = [];

  beforeAll(async () => {
    db = await postgres!.fresh();
  });
  afterAll(async () => {
    for (const store of opened) await store.close();
    await db?.drop();
  });

  it('settle on one signing key even when one of them writes late', async () => {
    const a = await openStore(db!.url, { poolSize: 2 }); // migrates the empty database
    opened.push(a);
    const b = storeWithLateInserts(db!.url, 'signing_keys');
    opened.push(b.store);

    const keyOfB = loadSigningKey(b.store);
    await b.held; // B has found no key and is writing its own
    let aHasKey = false;
    const keyOfA = loadSigningKey(a).finally(() => {
      aHasKey = true;
    });
    // Lock waits of this database's sessions: A taking its turn after B shows up here.
    const waiting = async () => {
      const { rows } = await sql<{ n: number | string }>`
        select count(*) as n from pg_locks
        where not granted and database = (select oid from pg_database where datname = current_database())`.execute(a.db);
      return Number(rows[0]!.n);
    };
    await waitUntil('A waits for B or has a key', async () => aHasKey || (await waiting()) > 0, 10_000, 10);
    b.release();
    const [kidA, kidB] = [(await keyOfA).kid, (await keyOfB).kid];
    expect(kidA).toBe(kidB);
    // And a third instance starting later agrees with both.
    expect((await loadSigningKey(a)).kid).toBe(kidA);
  });
});
