// Stored transfers in bulk for the `list` part, written straight into the store: copies of transfers the API
// made (provisionBanking's inbound credit and internal transfers both ways), each with copies of its ledger
// entries, so every row has the shape the service writes. Ids are given in order after the largest (the
// store's AUTOINCREMENT continues after them), created 1 ms apart, and each account's balance columns move
// by what the copied posted entries add, in the same transaction, so they still equal the sums of its entries.
import type { Insertable, Selectable } from 'kysely';
import type { BankingLedgerEntryTable, BankingTransferTable } from '../server/platform/store/banking-schema.js';
import type { Store } from '../server/platform/store/database.js';
import { inList } from '../server/platform/store/in-list.js';

type Transfer = Selectable<BankingTransferTable>;
type Entry = Selectable<BankingLedgerEntryTable>;

/** What a posted or pending entry adds to its account's ledger and available balances (ledger.ts's rules). */
function effect(entry: Entry): { ledger: number; available: number } {
  const amount = Number(entry.amount_minor);
  if (entry.status === 'voided') return { ledger: 0, available: 0 };
  if (entry.direction === 'CREDIT') return entry.status === 'posted' ? { ledger: amount, available: amount } : { ledger: 0, available: 0 };
  return entry.status === 'posted' ? { ledger: -amount, available: -amount } : { ledger: 0, available: -amount };
}

/**
 * Adds `count` copies of the transfers `templateIds`, taken in turn; `first` numbers them so successive calls
 * continue one sequence, the newest created at `endsAt` ms. Returns the seconds it took.
 */
export async function insertTransfers(
  store: Store,
  templateIds: number[],
  first: number,
  count: number,
  endsAt: number,
  transfersPerStatement = 500,
  transfersPerTransaction = 50_000,
): Promise<number> {
  const started = performance.now();
  const db = store.db;
  const templates = await db.selectFrom('banking_transfers').selectAll().where('id', 'in', inList(templateIds)).orderBy('id').execute();
  const templateEntries = await db
    .selectFrom('banking_ledger_entries')
    .selectAll()
    .where('transfer_id', 'in', inList(templateIds))
    .orderBy('id')
    .execute();
  const entriesOf = new Map(templates.map((t) => [Number(t.id), templateEntries.filter((e) => Number(e.transfer_id) === Number(t.id))]));
  for (let done = 0; done < count; ) {
    const inTransaction = Math.min(transfersPerTransaction, count - done);
    await db.transaction().execute(async (trx) => {
      const maxId = async (table: 'banking_transfers' | 'banking_ledger_entries') =>
        Number(
          (
            await trx
              .selectFrom(table)
              .select((eb) => eb.fn.max('id').as('max'))
              .executeTakeFirstOrThrow()
          ).max ?? 0,
        );
      let transferId = await maxId('banking_transfers');
      let entryId = await maxId('banking_ledger_entries');
      const balances = new Map<number, { ledger: number; available: number }>();
      for (let k = 0; k < inTransaction; k += transfersPerStatement) {
        const n = Math.min(transfersPerStatement, inTransaction - k);
        const transfers: Insertable<BankingTransferTable>[] = [];
        const entries: Insertable<BankingLedgerEntryTable>[] = [];
        for (let j = 0; j < n; j++) {
          const i = first + done + k + j;
          const at = endsAt - (count + first) + i; // older transfers first, 1 ms apart
          const template: Transfer = templates[i % templates.length]!;
          transferId += 1;
          transfers.push({ ...template, id: transferId, created_at: at, updated_at: at + 5 });
          for (const entry of entriesOf.get(Number(template.id))!) {
            entryId += 1;
            entries.push({ ...entry, id: entryId, transfer_id: transferId, created_at: at, updated_at: at + 5 });
            if (entry.account_id === null) continue;
            const change = effect(entry);
            const balance = balances.get(Number(entry.account_id)) ?? { ledger: 0, available: 0 };
            balances.set(Number(entry.account_id), {
              ledger: balance.ledger + change.ledger,
              available: balance.available + change.available,
            });
          }
        }
        await trx.insertInto('banking_transfers').values(transfers).execute();
        await trx.insertInto('banking_ledger_entries').values(entries).execute();
      }
      for (const [accountId, change] of balances)
        await trx
          .updateTable('banking_accounts')
          .set((eb) => ({
            ledger_minor: eb('ledger_minor', '+', change.ledger),
            available_minor: eb('available_minor', '+', change.available),
          }))
          .where('id', '=', accountId)
          .execute();
    });
    done += inTransaction;
  }
  return (performance.now() - started) / 1000;
}
