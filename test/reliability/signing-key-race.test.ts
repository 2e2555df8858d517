// Scale out, at start: instances starting together on one empty PostgreSQL must settle on one token
// signing key, or a token one instance issues is refused by the other (behind a load balancer: random
// 401s). Here instance B starts first but its key reaches the database 300 ms late (a slow link, a busy
// server, or a host whose clock is behind); instance A starts in that window. PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from '../../server/auth/signing-keys.js';
import { openStore, type Store } from '../../server/store/database.js';
import { postgresAvailable, stores } from '../support/stores.js';
import { storeWithSlowInserts } from './slow-writes-store.js';
import { sleep } from './wait-until.js';

const postgres = stores.find((kind) => kind.name === 'postgres');
const title = postgresAvailable ? 'two instances starting together' : 'two instances starting together (skipped: needs PostgreSQL, set TEST_DATABASE_URL)';

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
    const b = storeWithSlowInserts(db!.url, 'signing_keys', 300);
    opened.push(b);

    const keyOfB = loadSigningKey(b);
    await sleep(50); // B has found no key and is writing its own
    const keyOfA = await loadSigningKey(a);
    const [kidA, kidB] = [keyOfA.kid, (await keyOfB).kid];
    expect(kidA).toBe(kidB);
    // And a third instance starting later agrees with both.
    expect((await loadSigningKey(a)).kid).toBe(kidA);
  });
});
