// Groups C and E: recipients and counterparties are payees of a merchant, created by a partner, with
// their payment details kept whole (numbers leave the service masked); payment requests and the history
// of their states.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';
import { withSerialId } from './columns.js';

export function migration(store: Store): Migration {
  const pg = store.dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      for (const [column, type] of [
        ['partner_id', big],
        ['rail_payee_id', 'text'],
        ['payment_method_type', 'text'],
        ['route', 'text'],
        ['details', 'text'],
      ] as const) {
        await db.schema.alterTable('payees').addColumn(column, type).execute();
      }
      await db.schema
        .alterTable('payees')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('payee'))
        .execute();
      await db.schema.createIndex('payees_merchant_kind').on('payees').columns(['merchant_id', 'kind', 'id']).execute();
      await db.schema.createIndex('payees_rail_payee_id').on('payees').column('rail_payee_id').unique().execute();

      await withSerialId(db.schema.createTable('payments'), store.dialect, 'payment_id')
        .addColumn('merchant_id', big, (c) => c.notNull().references('merchants.id'))
        .addColumn('partner_id', big)
        .addColumn('payee_id', big, (c) => c.notNull())
        .addColumn('merchant_account_number', 'text')
        .addColumn('account_number', 'text', (c) => c.notNull())
        .addColumn('amount_minor', big, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('payment_method_type', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('internal_note', 'text')
        .addColumn('partner_payment_unique_id', 'text')
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('processing_status', 'text', (c) => c.notNull())
        .addColumn('recon_status', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('product_id', big)
        .addColumn('requester_ip', 'text')
        .addColumn('requester_username', 'text')
        .addColumn('post_date', big)
        .addColumn('next_step_at', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      // One payment per partner and partnerPaymentUniqueId: the idempotency guard under concurrency.
      await db.schema
        .createIndex('payments_partner_unique')
        .on('payments')
        .columns(['partner_id', 'partner_payment_unique_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('payments_merchant_created')
        .on('payments')
        .columns(['merchant_id', 'created_at', 'payment_id'])
        .execute();
      await db.schema
        .createIndex('payments_due')
        .on('payments')
        .column('next_step_at')
        .where(sql.ref('next_step_at'), 'is not', null)
        .execute();

      await db.schema
        .createTable('payment_status_changes')
        .addColumn('payment_id', big, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payment_status_changes_payment').on('payment_status_changes').columns(['payment_id', 'at']).execute();
    },
  };
}
