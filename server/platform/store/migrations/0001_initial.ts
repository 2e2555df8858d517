// The initial schema. Integer keys are autoincrementing in SQLite and identity columns in PostgreSQL;
// time and money columns are 64-bit integers in both (see ../schema.ts).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';
import { withSerialId } from './columns.js';

export function migration(store: Store): Migration {
  const pg = store.dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await withSerialId(db.schema.createTable('merchants'), store.dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await withSerialId(db.schema.createTable('partners'), store.dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('partner_merchants')
        .addColumn('partner_id', big, (c) => c.notNull().references('partners.id'))
        .addColumn('merchant_id', big, (c) => c.notNull().references('merchants.id'))
        .addColumn('linked_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('partner_merchants_pk', ['partner_id', 'merchant_id'])
        .execute();
      await db.schema
        .createTable('api_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('owner_kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', big, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('revoked_at', big)
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await withSerialId(db.schema.createTable('payees'), store.dialect)
        .addColumn('merchant_id', big, (c) => c.notNull().references('merchants.id'))
        .addColumn('payee_type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn('tax_id', 'text')
        .addColumn('id_type', 'text')
        .addColumn('address_line', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('postal_code', 'text', (c) => c.notNull())
        .addColumn('date_of_birth', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payees_merchant_id').on('payees').columns(['merchant_id', 'id']).execute();

      await db.schema
        .createTable('payee_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('payee_id', big, (c) => c.notNull().references('payees.id'))
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('holder_name', 'text')
        .addColumn('bank_name', 'text')
        .addColumn('routing_number', 'text')
        .addColumn('account_number', 'text')
        .addColumn('clearing_system_code', 'text')
        .addColumn('branch_transit_number', 'text')
        .addColumn('iban', 'text')
        .addColumn('currency', 'text')
        .addColumn('account_type', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payee_accounts_payee').on('payee_accounts').columns(['payee_id', 'created_at']).execute();

      await db.schema
        .createTable('payouts')
        .addColumn('reference', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', big, (c) => c.notNull().references('merchants.id'))
        .addColumn('payee_id', big, (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('amount_minor', big, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reasons', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('next_step_at', big)
        .execute();
      // References are time-ordered, so (merchant, reference) orders a merchant's payouts by creation.
      await db.schema.createIndex('payouts_merchant_reference').on('payouts').columns(['merchant_id', 'reference']).execute();
      await db.schema
        .createIndex('payouts_merchant_payee_reference')
        .on('payouts')
        .columns(['merchant_id', 'payee_id', 'reference'])
        .execute();
      await db.schema
        .createIndex('payouts_merchant_status_reference')
        .on('payouts')
        .columns(['merchant_id', 'status', 'reference'])
        .execute();
      await db.schema
        .createIndex('payouts_due')
        .on('payouts')
        .columns(['next_step_at'])
        .where(sql.ref('next_step_at'), 'is not', null)
        .execute();

      await withSerialId(db.schema.createTable('payout_events'), store.dialect)
        .addColumn('payout_reference', 'text', (c) => c.notNull())
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('dispatched_at', big)
        .execute();
      await db.schema
        .createIndex('payout_events_pending')
        .on('payout_events')
        .columns(['id'])
        .where(sql.ref('dispatched_at'), 'is', null)
        .execute();
      await db.schema.createIndex('payout_events_reference').on('payout_events').columns(['payout_reference', 'id']).execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_id', big, (c) => c.notNull().references('merchants.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('deleted_at', big)
        .execute();
      await db.schema.createIndex('webhooks_merchant').on('webhooks').columns(['merchant_id', 'created_at']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('event_id', big, (c) => c.notNull())
        .addColumn('webhook_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('attempted_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_deliveries_pk', ['event_id', 'webhook_id'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
        .execute();
    },
  };
}
