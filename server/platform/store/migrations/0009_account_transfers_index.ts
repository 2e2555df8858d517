// An account's transfers and entries in order (issue 15): `listAccountTransfers` walks the account's ledger entries
// newest transfer first, and `listAccountLedgerEntries` newest entry first, each stopping after a page, so a page
// costs the same at any number of the account's entries, rather than gathering them all and sorting them.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(_store: Store): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('banking_ledger_entries_account_transfer')
        .on('banking_ledger_entries')
        .columns(['account_id', 'transfer_id'])
        .where(sql.ref('account_id'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('banking_ledger_entries_account_entry')
        .on('banking_ledger_entries')
        .columns(['account_id', 'id'])
        .where(sql.ref('account_id'), 'is not', null)
        .execute();
    },
  };
}
