// An account's statement (`listAccountLedgerEntries`): its entries on the double-entry ledger, newest first. The
// posted ones sum to its `ledger` balance and, less its pending debits, to `available` (ledger.ts keeps the
// balance columns equal to those sums). Voided entries (released holds) are left out unless asked for.
import type { Selectable } from 'kysely';
import type { components, operations } from '../../../generated/banking/schema.js';
import { toDecimalString } from '../../platform/money/currencies.js';
import type { BankingLedgerEntryTable } from '../../platform/store/banking-schema.js';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { cursorPage, idCursorList } from '../../platform/store/cursor.js';
import { findAccount, pathParam } from './lookups.js';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listAccountLedgerEntries']['parameters']['query']>;
export type AccountLedgerEntry = Schemas['AccountLedgerEntry'];

const statementStatuses: Schemas['LedgerEntryStatus'][] = ['pending', 'posted'];

/** An entry changes status once, so a posted entry's last change is when it was posted. */
export function toAccountLedgerEntry(row: Selectable<BankingLedgerEntryTable>): AccountLedgerEntry {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    transferId: Number(row.transfer_id),
    direction: row.direction,
    amount: toDecimalString(Number(row.amount_minor), row.currency),
    currency: row.currency,
    status: row.status,
    createdOn: isoTimestamp(row.created_at),
    postedOn: row.status === 'posted' ? isoTimestamp(row.updated_at) : null,
  };
}

const entryCursors = idCursorList('entry');

export class AccountStatements {
  constructor(private readonly store: Store) {}

  async entries(merchantId: number, accountId: number, query: ListQuery): Promise<Schemas['AccountLedgerEntryList']> {
    const statuses = query.Status !== undefined && query.Status.length > 0 ? query.Status : statementStatuses;
    const { page, nextCursor } = await cursorPage(
      entryCursors,
      query,
      async (below, limit) => {
        await findAccount(this.store.db, merchantId, accountId, pathParam('accountId', 'unknown account'));
        return this.store.db
          .selectFrom('banking_ledger_entries')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('status', 'in', inList(statuses))
          .$if(below !== undefined, (q) => q.where('id', '<', below!))
          .orderBy('id', 'desc')
          .limit(limit)
          .execute();
      },
      (row) => Number(row.id),
    );
    return { data: page.map(toAccountLedgerEntry), nextCursor };
  }
}
