// The double-entry ledger. Every transfer writes one debit and one credit of the same amount (and, after
// a return, a reversing pair), so each transfer's entries balance and the ledger as a whole sums to zero.
// Business accounts are `account:<id>`; the external side of a rail is its settlement account.
//
// Each business account keeps two balance columns, changed only here and only in the transaction that
// writes or changes its entries, so they always equal the sums of its entries:
//   ledger    = posted credits − posted debits
//   available = ledger − pending debits
// A debit may not take `available` below zero: the update is conditional (`... where available_minor >= x`)
// and must change exactly one row. The accounts a transfer touches are locked first, in id order (select
// ... for update on PostgreSQL; SQLite runs one transaction at a time), so concurrent debits of one
// account queue instead of overdrawing it, and transfers in opposite directions cannot deadlock.
import type { Kysely, Selectable } from 'kysely';
import { Problem, bodyField } from '../../platform/problems.js';
import type {
  BankingAccountTable,
  BankingLedgerEntryTable,
  EntryDirection,
  EntryStatus,
  OutboundRail,
} from '../../platform/store/banking-schema.js';
import type { Dialect } from '../../platform/store/database.js';
import type { Database } from '../../platform/store/schema.js';

/** The settlement (clearing) account of each external rail. */
export const settlementAccount: Readonly<Record<OutboundRail, string>> = {
  ACH_PULL: 'settlement:ach',
  ACH_PUSH: 'settlement:ach',
  WIRE_DOMESTIC: 'settlement:wire_domestic',
  WIRE_INTERNATIONAL: 'settlement:wire_international',
};

export interface LedgerSide {
  ledgerAccount: string;
  /** The business account, or null for a settlement account. */
  accountId: number | null;
}

export const accountSide = (accountId: number): LedgerSide => ({ ledgerAccount: `account:${accountId}`, accountId });
export const settlementSide = (type: OutboundRail): LedgerSide => ({
  ledgerAccount: settlementAccount[type],
  accountId: null,
});

interface Effect {
  ledger: number;
  available: number;
}

/** What one entry contributes to its account's balances in a given status. */
export function effectOf(direction: EntryDirection, status: EntryStatus, amount: number): Effect {
  if (status === 'voided') return { ledger: 0, available: 0 };
  if (direction === 'CREDIT') return status === 'posted' ? { ledger: amount, available: amount } : { ledger: 0, available: 0 };
  return status === 'posted' ? { ledger: -amount, available: -amount } : { ledger: 0, available: -amount };
}

type Db = Kysely<Database>;

/** Locks the accounts in id order and returns them as they are now. */
export async function lockAccounts(db: Db, dialect: Dialect, ids: number[]): Promise<Map<number, Selectable<BankingAccountTable>>> {
  const locked = new Map<number, Selectable<BankingAccountTable>>();
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const row = await db
      .selectFrom('banking_accounts')
      .selectAll()
      .where('id', '=', id)
      .$if(dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    locked.set(id, row);
  }
  return locked;
}

/**
 * Applies a balance change to an account. With `guard`, a change that lowers `available` only applies if
 * `available` stays at or above zero; returns whether it applied.
 */
async function apply(db: Db, accountId: number, change: Effect, guard: boolean): Promise<boolean> {
  if (change.ledger === 0 && change.available === 0) return true;
  let update = db
    .updateTable('banking_accounts')
    .set((eb) => ({ ledger_minor: eb('ledger_minor', '+', change.ledger), available_minor: eb('available_minor', '+', change.available) }))
    .where('id', '=', accountId);
  if (guard && change.available < 0) update = update.where('available_minor', '>=', -change.available);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const insufficientFunds = (accountId: number, field = 'amount') =>
  new Problem('insufficient-funds', `Account ${accountId} has too little available for this debit.`, {
    errors: [bodyField(field, 'exceeds the available balance')],
  });

/**
 * Writes a transfer's debit and credit, both `pending` (a hold: available drops on the debited account) or
 * both `posted`. A debit of a business account is guarded: it fails with insufficient-funds, and the caller's
 * transaction rolls back, rather than take `available` below zero.
 */
export async function writeEntries(
  db: Db,
  transferId: number,
  debit: LedgerSide,
  credit: LedgerSide,
  amount: number,
  currency: string,
  status: 'pending' | 'posted',
  now: number,
): Promise<void> {
  if (debit.accountId !== null && !(await apply(db, debit.accountId, effectOf('DEBIT', status, amount), true)))
    throw insufficientFunds(debit.accountId);
  if (credit.accountId !== null) await apply(db, credit.accountId, effectOf('CREDIT', status, amount), false);
  await db
    .insertInto('banking_ledger_entries')
    .values([
      {
        transfer_id: transferId,
        ledger_account: debit.ledgerAccount,
        account_id: debit.accountId,
        direction: 'DEBIT',
        amount_minor: amount,
        currency,
        status,
        created_at: now,
        updated_at: now,
      },
      {
        transfer_id: transferId,
        ledger_account: credit.ledgerAccount,
        account_id: credit.accountId,
        direction: 'CREDIT',
        amount_minor: amount,
        currency,
        status,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
}

/** Moves every pending entry of the transfer to posted (settled) or voided (released), with its balance change. */
export async function settleEntries(db: Db, transferId: number, to: 'posted' | 'voided', now: number): Promise<void> {
  const pending = await db
    .selectFrom('banking_ledger_entries')
    .selectAll()
    .where('transfer_id', '=', transferId)
    .where('status', '=', 'pending')
    .orderBy('id')
    .execute();
  for (const entry of pending) {
    const changed = await db
      .updateTable('banking_ledger_entries')
      .set({ status: to, updated_at: now })
      .where('id', '=', entry.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1 || entry.account_id === null) continue;
    const amount = Number(entry.amount_minor);
    const before = effectOf(entry.direction, 'pending', amount);
    const after = effectOf(entry.direction, to, amount);
    await apply(
      db,
      Number(entry.account_id),
      { ledger: after.ledger - before.ledger, available: after.available - before.available },
      false,
    );
  }
}

/**
 * A return: posted entries never change, so a reversing pair is appended (the credited side debited, the
 * debited side credited). Not guarded: a returned ACH pull may take an account below zero.
 */
export async function reverseEntries(db: Db, transferId: number, now: number): Promise<void> {
  const posted = await db
    .selectFrom('banking_ledger_entries')
    .selectAll()
    .where('transfer_id', '=', transferId)
    .where('status', '=', 'posted')
    .orderBy('id')
    .execute();
  const original = (direction: EntryDirection) => posted.find((e) => e.direction === direction);
  const debit = original('DEBIT');
  const credit = original('CREDIT');
  if (!debit || !credit || posted.length !== 2) throw new Error(`Transfer ${transferId} has no posted pair to reverse.`);
  const amount = Number(debit.amount_minor);
  const side = (e: Selectable<BankingLedgerEntryTable>): LedgerSide => ({
    ledgerAccount: e.ledger_account,
    accountId: e.account_id === null ? null : Number(e.account_id),
  });
  const reversingDebit = side(credit);
  const reversingCredit = side(debit);
  if (reversingDebit.accountId !== null) await apply(db, reversingDebit.accountId, effectOf('DEBIT', 'posted', amount), false);
  if (reversingCredit.accountId !== null) await apply(db, reversingCredit.accountId, effectOf('CREDIT', 'posted', amount), false);
  await db
    .insertInto('banking_ledger_entries')
    .values([
      {
        transfer_id: transferId,
        ledger_account: reversingDebit.ledgerAccount,
        account_id: reversingDebit.accountId,
        direction: 'DEBIT',
        amount_minor: amount,
        currency: debit.currency,
        status: 'posted',
        created_at: now,
        updated_at: now,
      },
      {
        transfer_id: transferId,
        ledger_account: reversingCredit.ledgerAccount,
        account_id: reversingCredit.accountId,
        direction: 'CREDIT',
        amount_minor: amount,
        currency: debit.currency,
        status: 'posted',
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
}
