// Reads of transfers: one by id (`getTransfer`) and one account's (`listAccountTransfers`). An account's transfers
// are those with an entry on its ledger account: made from it, into it (an ACH pull, an internal transfer from
// another account) and the funding sweeps that covered its shortfalls. Each shows as transfer-events.ts's
// `transferView` does: its entries, oldest first, and the balance of the account it was requested for, now.
import type { Kysely, Selectable } from 'kysely';
import type { BankingTransferTable } from '../../platform/store/banking-schema.js';
import { compiledQuery } from '../../platform/store/compiled-queries.js';
import type { components, operations } from '../../../generated/banking/schema.js';
import { Problem } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';
import type { Database } from '../../platform/store/schema.js';
import { optionalTimestamp } from '../../platform/store/timestamps.js';
import { cursorPage, idCursorList } from '../../platform/store/cursor.js';
import { findAccount, pathParam } from './lookups.js';
import {
  type Balance,
  type LedgerEntryViewRow,
  ledgerEntryViewColumns,
  type Transfer,
  type TransferViewRow,
  toBalance,
  toTransfer,
  transferViewColumns,
} from './views.js';

type ListQuery = NonNullable<operations['listAccountTransfers']['parameters']['query']>;
type BalanceRow = Parameters<typeof toBalance>[0];

const entriesOfTransfers = compiledQuery((db: Kysely<Database>, v: { transferIds: number[] }) =>
  db
    .selectFrom('banking_ledger_entries')
    .select(['transfer_id', ...ledgerEntryViewColumns])
    .where('transfer_id', 'in', v.transferIds)
    .orderBy('transfer_id')
    .orderBy('id'),
);

/**
 * The transfers as reads show them, with one query for all their entries and, unless the caller read them with
 * the rows (`balances`), one for their accounts. Only the columns the views read: a page's read cost grows with the
 * number of values SQLite hands over, nulls included, more than with the rows.
 */
export async function transferViews(
  db: Kysely<Database>,
  rows: readonly TransferViewRow[],
  now = Date.now(),
  balances?: ReadonlyMap<number, BalanceRow>,
): Promise<Transfer[]> {
  if (rows.length === 0) return [];
  // Grouped by transfer in the order the index keeps them (transfer, then entry id: oldest first).
  const entries = await entriesOfTransfers(db, { transferIds: inList(rows.map((r) => r.id)) });
  const entriesOf = new Map<number, LedgerEntryViewRow[]>();
  for (const entry of entries) {
    const id = Number(entry.transfer_id);
    const list = entriesOf.get(id);
    if (list) list.push(entry);
    else entriesOf.set(id, [entry]);
  }
  const accountById =
    balances ??
    new Map(
      (
        await db
          .selectFrom('banking_accounts')
          .select(['id', 'currency', 'status', 'ledger_minor', 'available_minor'])
          .where('id', 'in', inList([...new Set(rows.map((r) => r.account_id))]))
          .execute()
      ).map((a) => [Number(a.id), a]),
    );
  const balanceOf = new Map<number, Balance>();
  return rows.map((row) => {
    const accountId = Number(row.account_id);
    let balance = balanceOf.get(accountId);
    if (!balance) {
      balance = toBalance(accountById.get(accountId)!, now);
      balanceOf.set(accountId, balance);
    }
    return toTransfer(row, entriesOf.get(Number(row.id)) ?? [], balance);
  });
}

const transferCursors = idCursorList('transfer');

/** The balance a transfer row read with its account's columns (`balance_currency` ...) shows. */
const balanceRowOf = (row: {
  account_id: number;
  balance_currency: BalanceRow['currency'];
  balance_status: BalanceRow['status'];
  ledger_minor: BalanceRow['ledger_minor'];
  available_minor: BalanceRow['available_minor'];
}): BalanceRow => ({
  id: row.account_id,
  currency: row.balance_currency,
  status: row.balance_status,
  ledger_minor: row.ledger_minor,
  available_minor: row.available_minor,
});

const oneTransfer = compiledQuery((db: Kysely<Database>, v: { merchantId: number; transferId: number }) =>
  db
    .selectFrom('banking_transfers as t')
    .innerJoin('banking_accounts as a', 'a.id', 't.account_id')
    .select(transferViewColumns.map((c) => `t.${c}` as const))
    .select(['a.currency as balance_currency', 'a.status as balance_status', 'a.ledger_minor', 'a.available_minor'])
    .where('t.merchant_id', '=', v.merchantId)
    .where('t.id', '=', v.transferId),
);
type TransferType = Selectable<BankingTransferTable>['type'];
type TransferStatus = Selectable<BankingTransferTable>['status'];

/** A page of an account's transfers (`forAccount`), with the balance each shows. */
const accountPage = compiledQuery(
  (
    db: Kysely<Database>,
    v: {
      accountId: number;
      merchantId: number;
      types: TransferType[] | undefined;
      statuses: TransferStatus[] | undefined;
      from: number | undefined;
      to: number | undefined;
      below: number | undefined;
      limit: number;
    },
  ) =>
    db
      .selectFrom('banking_ledger_entries as e')
      .innerJoin('banking_accounts as p', 'p.id', 'e.account_id')
      .innerJoin('banking_transfers as t', 't.id', 'e.transfer_id')
      .innerJoin('banking_accounts as a', 'a.id', 't.account_id')
      .select(transferViewColumns.map((c) => `t.${c}` as const))
      .select(['a.currency as balance_currency', 'a.status as balance_status', 'a.ledger_minor', 'a.available_minor'])
      .where('e.account_id', '=', v.accountId)
      .where('p.merchant_id', '=', v.merchantId)
      .where('t.merchant_id', '=', v.merchantId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('banking_ledger_entries as d')
              .select('d.id')
              .whereRef('d.account_id', '=', 'e.account_id')
              .whereRef('d.transfer_id', '=', 'e.transfer_id')
              .whereRef('d.id', '<', 'e.id'),
          ),
        ),
      )
      .$if(v.types !== undefined, (q) => q.where('t.type', 'in', v.types!))
      .$if(v.statuses !== undefined, (q) => q.where('t.status', 'in', v.statuses!))
      .$if(v.from !== undefined, (q) => q.where('t.created_at', '>=', v.from!))
      .$if(v.to !== undefined, (q) => q.where('t.created_at', '<', v.to!))
      .$if(v.below !== undefined, (q) => q.where('e.transfer_id', '<', v.below!).where('t.id', '<', v.below!))
      .orderBy('e.transfer_id', 'desc')
      .limit(v.limit),
);

export class TransferReads {
  constructor(private readonly store: Store) {}

  async get(merchantId: number, transferId: number): Promise<Transfer> {
    // The transfer with its account's balance in one query; its entries in the second (transferViews).
    const [row] = await oneTransfer(this.store.db, { merchantId, transferId });
    if (!row)
      throw new Problem('not-found', `No transfer with id ${transferId} exists for this merchant.`, {
        errors: [pathParam('transferId', 'unknown transfer')],
      });
    const [transfer] = await transferViews(this.store.db, [row], Date.now(), new Map([[Number(row.account_id), balanceRowOf(row)]]));
    return transfer!;
  }

  async forAccount(merchantId: number, accountId: number, query: ListQuery): Promise<components['schemas']['TransferList']> {
    const from = optionalTimestamp(query.CreatedFrom, { parameter: 'CreatedFrom' });
    const to = optionalTimestamp(query.CreatedTo, { parameter: 'CreatedTo' });
    // A range that ends before it starts contradicts itself: 422, as every contradicting filter (DECISIONS, Errors).
    if (from !== undefined && to !== undefined && to < from)
      throw new Problem('business-rule', 'CreatedTo is before CreatedFrom.', {
        errors: [{ parameter: 'CreatedTo', detail: 'must not be before CreatedFrom' }],
      });
    const db = this.store.db;
    // A keyset walk down the account's entries by transfer id (index banking_ledger_entries_account_transfer),
    // each joined to its transfer, that stops after a page: the same cost at any number of the account's
    // transfers. A transfer shows once, at its first entry on the account (a returned one has a second). The
    // cursor bounds both sides, so neither store starts its walk of either at the newest. The walk only passes
    // the merchant's own account (so a page with rows needs no lookup of it: an empty one tells an unknown
    // account, 404, from no transfers), and reads the balance each transfer shows with it.
    const { page, nextCursor } = await cursorPage(
      transferCursors,
      query,
      async (below, limit) => {
        const rows = await accountPage(db, {
          accountId,
          merchantId,
          types: query.Type !== undefined && query.Type.length > 0 ? inList(query.Type) : undefined,
          statuses: query.Status !== undefined && query.Status.length > 0 ? inList(query.Status) : undefined,
          from,
          to,
          below,
          limit,
        });
        if (rows.length === 0) await findAccount(db, merchantId, accountId, pathParam('accountId', 'unknown account'));
        return rows;
      },
      (row) => Number(row.id),
    );
    const balances = new Map<number, BalanceRow>();
    for (const row of page) balances.set(Number(row.account_id), balanceRowOf(row));
    return { data: await transferViews(db, page, Date.now(), balances), nextCursor };
  }
}
