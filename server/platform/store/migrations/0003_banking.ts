// The banking tables (group D): businesses and their verifications, counterparties, deposit accounts with
// their balances, transfers and their double-entry ledger entries. Same conventions as 0001_initial.ts.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';
import { withSerialId } from './columns.js';

export function migration(store: Store): Migration {
  const pg = store.dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await withSerialId(db.schema.createTable('banking_businesses'), store.dialect)
        .addColumn('merchant_id', big, (c) => c.notNull().references('merchants.id'))
        .addColumn('legal_name', 'text', (c) => c.notNull())
        .addColumn('dba_name', 'text')
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('tax_id', 'text', (c) => c.notNull())
        .addColumn('tax_id_key', 'text', (c) => c.notNull())
        .addColumn('formation_date', 'text', (c) => c.notNull())
        .addColumn('incorporation_country', 'text', (c) => c.notNull())
        .addColumn('incorporation_state', 'text')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('website', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('verification_status', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      // One business per tax id per merchant: concurrent duplicates meet here.
      await db.schema
        .createIndex('banking_businesses_tax_id')
        .unique()
        .on('banking_businesses')
        .columns(['merchant_id', 'tax_id_key'])
        .execute();

      await withSerialId(db.schema.createTable('banking_verifications'), store.dialect)
        .addColumn('business_id', big, (c) => c.notNull().references('banking_businesses.id'))
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('subject_key', 'text', (c) => c.notNull())
        .addColumn('person', 'text')
        .addColumn('person_details', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reasons', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('decided_at', big)
        .execute();
      await db.schema
        .createIndex('banking_verifications_business')
        .on('banking_verifications')
        .columns(['business_id', 'subject_key', 'status'])
        .execute();

      await withSerialId(db.schema.createTable('banking_counterparties'), store.dialect)
        .addColumn('business_id', big, (c) => c.notNull().references('banking_businesses.id'))
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('address', 'text')
        .addColumn('ach_routing_number', 'text')
        .addColumn('ach_account_number', 'text')
        .addColumn('ach_account_type', 'text')
        .addColumn('wire_bank_id_type', 'text')
        .addColumn('wire_bank_id', 'text')
        .addColumn('wire_bank_name', 'text')
        .addColumn('wire_account_number', 'text')
        .addColumn('wire_bank_address', 'text')
        .addColumn('wire_intermediary_bank', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('banking_counterparties_business').on('banking_counterparties').columns(['business_id', 'id']).execute();

      await withSerialId(db.schema.createTable('banking_accounts'), store.dialect)
        .addColumn('business_id', big, (c) => c.notNull().references('banking_businesses.id'))
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('account_name', 'text', (c) => c.notNull())
        .addColumn('account_type', 'text', (c) => c.notNull())
        .addColumn('account_number', 'text', (c) => c.notNull())
        .addColumn('funding_account_id', big, (c) => c.references('banking_accounts.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('ledger_minor', big, (c) => c.notNull())
        .addColumn('available_minor', big, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      // Account numbers are unique across the bank (a preset number that is taken is a 409).
      await db.schema.createIndex('banking_accounts_number').unique().on('banking_accounts').columns(['account_number']).execute();
      await db.schema.createIndex('banking_accounts_business').on('banking_accounts').columns(['business_id', 'id']).execute();

      await withSerialId(db.schema.createTable('banking_transfers'), store.dialect)
        .addColumn('merchant_id', big, (c) => c.notNull())
        .addColumn('business_id', big, (c) => c.notNull().references('banking_businesses.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount_minor', big, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('ledger_amount_minor', big, (c) => c.notNull())
        .addColumn('account_id', big, (c) => c.notNull().references('banking_accounts.id'))
        .addColumn('from_account_id', big)
        .addColumn('from_counterparty_id', big)
        .addColumn('from_name', 'text', (c) => c.notNull())
        .addColumn('from_number_last4', 'text', (c) => c.notNull())
        .addColumn('to_account_id', big)
        .addColumn('to_counterparty_id', big)
        .addColumn('to_name', 'text', (c) => c.notNull())
        .addColumn('to_number_last4', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('external_id', 'text')
        .addColumn('ach', 'text')
        .addColumn('wire', 'text')
        .addColumn('funding_transfer_id', big)
        .addColumn('reasons', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('banking_transfers_account').on('banking_transfers').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('banking_transfers_merchant').on('banking_transfers').columns(['merchant_id', 'id']).execute();

      await withSerialId(db.schema.createTable('banking_ledger_entries'), store.dialect)
        .addColumn('transfer_id', big, (c) => c.notNull().references('banking_transfers.id'))
        .addColumn('ledger_account', 'text', (c) => c.notNull())
        .addColumn('account_id', big, (c) => c.references('banking_accounts.id'))
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('amount_minor', big, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('banking_ledger_entries_transfer').on('banking_ledger_entries').columns(['transfer_id', 'id']).execute();
      await db.schema
        .createIndex('banking_ledger_entries_account')
        .on('banking_ledger_entries')
        .columns(['account_id', 'status'])
        .where(sql.ref('account_id'), 'is not', null)
        .execute();
    },
  };
}
