// Webhook deliveries get an attempt number, part of their key: a delivery sent again (`redeliverWebhookDelivery`)
// is a new row beside the first, so the log keeps every attempt. Existing deliveries are attempt 1.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (store.dialect === 'postgres') {
        await sql`alter table webhook_deliveries add column attempt integer not null default 1`.execute(db);
        await sql`alter table webhook_deliveries drop constraint webhook_deliveries_pk`.execute(db);
        await sql`alter table webhook_deliveries add constraint webhook_deliveries_pk primary key (event_id, webhook_id, attempt)`.execute(
          db,
        );
        return;
      }
      // SQLite cannot change a table's primary key: the table is rebuilt, with its indexes.
      await db.schema
        .createTable('webhook_deliveries_new')
        .addColumn('event_id', 'integer', (c) => c.notNull())
        .addColumn('webhook_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('attempted_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_deliveries_pk', ['event_id', 'webhook_id', 'attempt'])
        .execute();
      await sql`insert into webhook_deliveries_new
        (event_id, webhook_id, attempt, message_id, url, outcome, status_code, error, duration_ms, attempted_at)
        select event_id, webhook_id, 1, message_id, url, outcome, status_code, error, duration_ms, attempted_at
        from webhook_deliveries`.execute(db);
      await db.schema.dropTable('webhook_deliveries').execute();
      await sql`alter table webhook_deliveries_new rename to webhook_deliveries`.execute(db);
      await db.schema
        .createIndex('webhook_deliveries_sending')
        .on('webhook_deliveries')
        .column('attempted_at')
        .where(sql.ref('outcome'), '=', 'sending')
        .execute();
      await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'event_id']).execute();
    },
  };
}
