// Migration 0012 on a store written by the release before it: every delivery record is kept, as attempt 1, and
// the key now takes further attempts of the same event and registration (redeliveries) but not a second attempt 1.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { migrateToLatest } from '../../server/platform/store/migrate.js';
import { stores } from '../support/stores.js';

describe.each(stores)('migration 0012 (delivery attempts) on $name', (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await kind.fresh();
    drop = db.drop;
    store = await openStore(db.url, { migrate: false });
    await migrateToLatest(store, '0010_case_folding');
  });
  afterAll(async () => {
    await store.close();
    await drop();
  });

  it('keeps every delivery as attempt 1 and keys attempts', async () => {
    const rows = [
      [7, 'a', 'delivered', 200, null, 12],
      [7, 'b', 'failed', 500, 'answered 500', 30],
      [8, 'a', 'sending', null, null, null],
    ] as const;
    for (const [eventId, webhookId, outcome, status, error, ms] of rows)
      await sql`insert into webhook_deliveries (event_id, webhook_id, message_id, url, outcome, status_code, error, duration_ms, attempted_at)
        values (${eventId}, ${webhookId}, ${`evt_${eventId}`}, ${`https://hooks.example/${webhookId}`}, ${outcome}, ${status}, ${error}, ${ms}, ${1000 + eventId})`.execute(
        store.db,
      );

    await migrateToLatest(store);

    const after = await store.db.selectFrom('webhook_deliveries').selectAll().orderBy('event_id').orderBy('webhook_id').execute();
    expect(
      after.map((r) => [
        Number(r.event_id),
        r.webhook_id,
        Number(r.attempt),
        r.message_id,
        r.url,
        r.outcome,
        r.status_code === null ? null : Number(r.status_code),
        r.error,
        r.duration_ms === null ? null : Number(r.duration_ms),
        Number(r.attempted_at),
      ]),
    ).toEqual(rows.map(([e, w, o, s, err, ms]) => [e, w, 1, `evt_${e}`, `https://hooks.example/${w}`, o, s, err, ms, 1000 + e]));
    const delivery = {
      event_id: 7,
      webhook_id: 'a',
      message_id: 'evt_7',
      url: 'https://hooks.example/a',
      outcome: 'delivered' as const,
      attempted_at: 2000,
      retry_at: null,
    };
    await store.db
      .insertInto('webhook_deliveries')
      .values({ ...delivery, attempt: 2 })
      .execute();
    await expect(
      store.db
        .insertInto('webhook_deliveries')
        .values({ ...delivery, attempt: 1 })
        .execute(),
    ).rejects.toThrow();
    await expect(store.db.insertInto('webhook_deliveries').values(delivery).execute()).rejects.toThrow();
  });
});
