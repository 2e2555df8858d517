// Reads of transfers: one by id (`getTransfer`) and one account's (`listAccountTransfers`). An account's transfers
// are those with an entry on its ledger account: made from it, into it (an ACH pull, an internal transfer from
// another account) and the funding sweeps that covered its shortfalls. Each shows as transfer-events.ts's
// `transferView` does: its entries, oldest first, and the balance of the account it was requested for, now.
import type { Kysely, Selectable } from 'kysely';
import type { components, operations } from '../../../generated/banking/schema.js';
import { Problem } from '../../platform/problems.js';
import type { BankingTransferTable } from '../../platform/store/banking-schema.js';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';
import type { Database } from '../../platform/store/schema.js';
import { optionalTimestamp } from '../../platform/store/timestamps.js';
import { decodeCursor, idCursorList, rowsToFetch, splitPage } from '../../platform/store/cursor.js';
import { findAccount, pathParam } from './lookups.js';
import { toBalance, toTransfer, type Transfer } from './views.js';

type ListQuery = NonNullable<operations['listAccountTransfers']['parameters']['query']>;
type TransferRow = Selectable<BankingTransferTable>;

/** The transfers as reads show them, with one query for all their entries and one for their accounts. */
export async function transferViews(db: Kysely<Database>, rows: TransferRow[], now = Date.now()): Promise<Transfer[]> {
  if (rows.length === 0) return [];
  const entries = await db
    .selectFrom('banking_ledger_entries')
    .selectAll()
    .where('transfer_id', 'in', inList(rows.map((r) => r.id)))
    .orderBy('id')
    .execute();
  const accounts = await db
    .selectFrom('banking_accounts')
    .selectAll()
    .where('id', 'in', inList([...new Set(rows.map((r) => r.account_id))]))
    .execute();
  const accountById = new Map(accounts.map((a) => [Number(a.id), a]));
  return rows.map((row) =>
    toTransfer(
      row,
      entries.filter((e) => Number(e.transfer_id) === Number(row.id)),
      toBalance(accountById.get(Number(row.account_id))!, now),
    ),
  );
}

const transferCursors = idCursorList('transfer');

export class TransferReads {
  constructor(private readonly store: Store) {}

  async get(merchantId: number, transferId: number): Promise<Transfer> {
    const row = await this.store.db
      .selectFrom('banking_transfers')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('id', '=', transferId)
      .executeTakeFirst();
    if (!row)
      throw new Problem('not-found', `No transfer with id ${transferId} exists for this merchant.`, {
        errors: [pathParam('transferId', 'unknown transfer')],
      });
    const [transfer] = await transferViews(this.store.db, [row]);
    return transfer!;
  }

  async forAccount(merchantId: number, accountId: number, query: ListQuery): Promise<components['schemas']['TransferList']> {
    const below = decodeCursor(transferCursors, query.Cursor);
    const from = optionalTimestamp(query.CreatedFrom, { parameter: 'CreatedFrom' });
    const to = optionalTimestamp(query.CreatedTo, { parameter: 'CreatedTo' });
    // A range that ends before it starts contradicts itself: 422, as every contradicting filter (DECISIONS, Errors).
    if (from !== undefined && to !== undefined && to < from)
      throw new Problem('business-rule', 'CreatedTo is before CreatedFrom.', {
        errors: [{ parameter: 'CreatedTo', detail: 'must not be before CreatedFrom' }],
      });
    await findAccount(this.store.db, merchantId, accountId, pathParam('accountId', 'unknown account'));
    const db = this.store.db;
    // A keyset walk down the account's entries by transfer id (index banking_ledger_entries_account_transfer),
    // each joined to its transfer, that stops after a page: the same cost at any number of the account's
    // transfers. A transfer shows once, at its first entry on the account (a returned one has a second). The
    // cursor bounds both sides, so neither store starts its walk of either at the newest.
    const rows = await db
      .selectFrom('banking_ledger_entries as e')
      .innerJoin('banking_transfers as t', 't.id', 'e.transfer_id')
      .selectAll('t')
      .where('e.account_id', '=', accountId)
      .where('t.merchant_id', '=', merchantId)
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
      .$if(query.Type !== undefined && query.Type.length > 0, (q) => q.where('t.type', 'in', inList(query.Type!)))
      .$if(query.Status !== undefined && query.Status.length > 0, (q) => q.where('t.status', 'in', inList(query.Status!)))
      .$if(from !== undefined, (q) => q.where('t.created_at', '>=', from!))
      .$if(to !== undefined, (q) => q.where('t.created_at', '<', to!))
      .$if(below !== undefined, (q) => q.where('e.transfer_id', '<', below!).where('t.id', '<', below!))
      .orderBy('e.transfer_id', 'desc')
      .limit(rowsToFetch(query.PageSize))
      .execute();
    const { page, nextCursor } = splitPage(transferCursors, rows, query.PageSize, (row) => Number(row.id));
    return { data: await transferViews(db, page), nextCursor };
  }
}
