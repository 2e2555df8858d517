// Events become a resource (issue 12): each has a public id (`evt_...`, random and time-ordered, never
// sequential), a type and the environment, inside the body every delivery carries, and is kept 30 days for
// `listEvents`. The outbox `payout_events` becomes `events`, general enough for events that are not a payout's:
// `subject` is what the event is about (a payout's reference; for `webhook.test`, the registration), and the
// dispatcher keeps each subject's events in order. Rows keep their internal ids, so the deliveries recorded
// against them still point at them; their bodies gain the envelope fields.
//
// Webhook registrations gain `enabled` and the previous secret that still signs for 24 hours after a rotation.
import { sql, type Kysely, type Migration } from 'kysely';
import { newEventId } from '../../ids/identifiers.js';
import type { Store } from '../store.js';
import { withSerialId } from './columns.js';

interface OldEvent {
  id: number;
  payout_reference: string;
  merchant_id: number;
  environment: string;
  state: string;
  payload: string;
  created_at: number;
  dispatched_at: number | null;
}

export function migration(store: Store): Migration {
  const pg = store.dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await withSerialId(db.schema.createTable('events'), store.dialect)
        .addColumn('event_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('dispatched_at', big)
        .execute();
      const old = db as unknown as Kysely<{
        payout_events: OldEvent;
        events: Omit<OldEvent, 'payout_reference' | 'state'> & { event_id: string; type: string; subject: string };
      }>;
      for (let after = 0; ; ) {
        const rows = await old.selectFrom('payout_events').selectAll().where('id', '>', after).orderBy('id').limit(500).execute();
        if (rows.length === 0) break;
        after = Number(rows[rows.length - 1]!.id);
        await old
          .insertInto('events')
          .values(
            rows.map((r) => {
              const event_id = newEventId(Number(r.created_at));
              const type = `payout.${r.state}`;
              return {
                id: Number(r.id),
                event_id,
                type,
                subject: r.payout_reference,
                merchant_id: r.merchant_id,
                environment: r.environment,
                payload: JSON.stringify({ id: event_id, type, environment: r.environment, ...JSON.parse(r.payload) }),
                created_at: r.created_at,
                dispatched_at: r.dispatched_at,
              };
            }),
          )
          .execute();
      }
      // Ids were given explicitly: the identity must continue after them (SQLite's AUTOINCREMENT does by itself).
      if (pg) await sql`select setval(pg_get_serial_sequence('events', 'id'), greatest((select max(id) from events), 1))`.execute(db);
      await db.schema.dropTable('payout_events').execute();
      await db.schema.createIndex('events_pending').on('events').columns(['id']).where(sql.ref('dispatched_at'), 'is', null).execute();
      await db.schema.createIndex('events_subject').on('events').columns(['subject', 'id']).execute();
      await db.schema.createIndex('events_merchant').on('events').columns(['merchant_id', 'id']).execute();
      await db.schema.createIndex('events_created').on('events').columns(['created_at']).execute();
      await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'event_id']).execute();

      await db.schema
        .alterTable('webhooks')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('webhooks').addColumn('previous_secret', 'text').execute();
      await db.schema.alterTable('webhooks').addColumn('previous_secret_until', big).execute();
    },
  };
}
