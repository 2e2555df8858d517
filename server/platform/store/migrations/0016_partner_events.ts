// Partners follow the payments they requested (issue 22): an event and a webhook registration belong to a merchant
// (`partner_id` null, as before) or to a partner (`partner_id` set). A payment's event is written for its merchant
// and, while the partner that requested it is linked to that merchant, once more for that partner, with its own id
// (partners/payment-events.ts). A partner's registration names no merchant (`merchant_id` null; a partner's test
// event has `merchant_id` 0). Reads, the dispatcher's matching, its slots and turns go by that owner
// (events/owners.ts).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  const pg = store.dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('events').addColumn('partner_id', big).execute();
      await db.schema.createIndex('events_partner').on('events').columns(['partner_id', 'id']).execute();
      if (pg) {
        await sql`alter table webhooks alter column merchant_id drop not null`.execute(db);
        await db.schema
          .alterTable('webhooks')
          .addColumn('partner_id', big, (c) => c.references('partners.id'))
          .execute();
      } else {
        // SQLite cannot drop a NOT NULL: the table is rebuilt (nothing references it), with its index.
        await db.schema
          .createTable('webhooks_new')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('merchant_id', big, (c) => c.references('merchants.id'))
          .addColumn('partner_id', big, (c) => c.references('partners.id'))
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('events', 'text', (c) => c.notNull())
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('secret', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('deleted_at', big)
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('previous_secret', 'text')
          .addColumn('previous_secret_until', big)
          .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`insert into webhooks_new
          (id, merchant_id, partner_id, url, events, environment, secret, created_at, deleted_at, enabled, previous_secret,
           previous_secret_until, retries)
          select id, merchant_id, null, url, events, environment, secret, created_at, deleted_at, enabled, previous_secret,
           previous_secret_until, retries
          from webhooks`.execute(db);
        await db.schema.dropTable('webhooks').execute();
        await sql`alter table webhooks_new rename to webhooks`.execute(db);
        await db.schema.createIndex('webhooks_merchant').on('webhooks').columns(['merchant_id', 'created_at']).execute();
      }
      await db.schema.createIndex('webhooks_partner').on('webhooks').columns(['partner_id', 'created_at']).execute();
    },
  };
}
