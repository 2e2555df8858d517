// Migration 0007 on a store written by the release before it: each outbox row of `payout_events` becomes an event
// with a public id, a type and a body that carries the envelope beside the old fields; rows keep their internal
// ids (the delivery records point at them), new events are numbered after them, and the old events are listed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events } from '../../server/domain/events/events.js';
import { merchantOwner } from '../../server/domain/events/owners.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { migrateToLatest } from '../../server/platform/store/migrate.js';
import { stores } from '../support/stores.js';

describe.each(stores)('migration 0007 (events) on $name', (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await kind.fresh();
    drop = db.drop;
    store = await openStore(db.url, { migrate: false });
    await migrateToLatest(store, '0006_partner_payment_keys');
  });
  afterAll(async () => {
    await store.close();
    await drop();
  });

  it('gives every old event an id, a type and the envelope, keeps its row id, lists it, and keeps registrations enabled', async () => {
    const now = Date.now();
    const merchant = await sql<{ id: number }>`insert into merchants (name, created_at) values ('Acme', ${now}) returning id`.execute(
      store.db,
    );
    const merchantId = Number(merchant.rows[0]!.id);
    const old = (state: string, at: number) => ({
      payout_reference: 'po_01jd8x3k7m2n4p6q8r0s2t4v6w',
      merchant_id: merchantId,
      environment: 'sandbox',
      state,
      payload: JSON.stringify({
        payout_request_id: 'po_01jd8x3k7m2n4p6q8r0s2t4v6w',
        amount: '10.00',
        currency: 'USD',
        timestamp: new Date(at).toISOString(),
        state,
      }),
      created_at: at,
      dispatched_at: at,
    });
    for (const [state, at] of [
      ['created', now - 2000],
      ['processing', now - 1000],
    ] as const)
      await sql`insert into payout_events (payout_reference, merchant_id, environment, state, payload, created_at, dispatched_at)
        values (${old(state, at).payout_reference}, ${merchantId}, 'sandbox', ${state}, ${old(state, at).payload}, ${at}, ${at})`.execute(
        store.db,
      );
    await sql`insert into webhooks (id, merchant_id, url, events, environment, secret, created_at, deleted_at)
      values ('3b2f6f4e-8c1d-4a7b-9e2f-5d6c7b8a9f01', ${merchantId}, 'https://hooks.example/a', '["payout.created"]', 'sandbox', null, ${now}, null)`.execute(
      store.db,
    );
    const before = (await sql<{ id: number }>`select id from payout_events order by id`.execute(store.db)).rows.map((r) => Number(r.id));

    await migrateToLatest(store);

    const rows = await store.db.selectFrom('events').selectAll().orderBy('id').execute();
    expect(rows.map((r) => Number(r.id))).toEqual(before);
    for (const [i, state] of ['created', 'processing'].entries()) {
      const row = rows[i]!;
      expect(row.event_id).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
      expect(row).toMatchObject({ type: `payout.${state}`, subject: 'po_01jd8x3k7m2n4p6q8r0s2t4v6w', environment: 'sandbox' });
      expect(JSON.parse(row.payload)).toEqual({
        id: row.event_id,
        type: `payout.${state}`,
        environment: 'sandbox',
        ...JSON.parse(old(state, 0).payload),
        timestamp: new Date(Number(row.created_at)).toISOString(),
      });
    }
    // A new event is numbered after the old ones.
    const added = await store.db
      .insertInto('events')
      .values({
        event_id: 'evt_01jd8x3k9a1b2c3d4e5f6g7h8j',
        type: 'payout.sent',
        subject: 'po_x',
        merchant_id: merchantId,
        environment: 'sandbox',
        payload: '{}',
        created_at: now,
        dispatched_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(added.id)).toBeGreaterThan(Math.max(...before));
    const listed = await new Events(store).list(merchantOwner(merchantId), { PayoutUniqueReference: 'po_01jd8x3k7m2n4p6q8r0s2t4v6w' });
    expect(listed.data.map((e) => e.type)).toEqual(['payout.processing', 'payout.created']);
    // Registrations made before stay enabled, with no previous secret.
    const registration = await store.db.selectFrom('webhooks').selectAll().executeTakeFirstOrThrow();
    expect(registration).toMatchObject({ enabled: 1, previous_secret: null, previous_secret_until: null });
  });
});
