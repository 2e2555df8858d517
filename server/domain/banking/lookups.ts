// Reads of one record, always scoped to the calling merchant: another merchant's business, account or
// counterparty is not found (404), exactly like one that does not exist. `lock` takes the row lock on
// PostgreSQL (select ... for update) for checks that must not race; SQLite runs one transaction at a time.
import type { Kysely, Selectable } from 'kysely';
import { Problem, type FieldError } from '../../platform/problems.js';
import type { BankingAccountTable, BankingBusinessTable, BankingCounterpartyTable } from '../../platform/store/banking-schema.js';
import type { Dialect } from '../../platform/store/database.js';
import type { Database } from '../../platform/store/schema.js';

export const pathParam = (name: string, detail: string): FieldError => ({ parameter: name, detail });

export async function findBusiness(
  db: Kysely<Database>,
  merchantId: number,
  id: number,
  at: FieldError,
  lock?: Dialect,
): Promise<Selectable<BankingBusinessTable>> {
  const row = await db
    .selectFrom('banking_businesses')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('id', '=', id)
    .$if(lock === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new Problem('not-found', `No business with id ${id} exists for this merchant.`, { errors: [at] });
  return row;
}

export async function findAccount(
  db: Kysely<Database>,
  merchantId: number,
  id: number,
  at: FieldError,
): Promise<Selectable<BankingAccountTable>> {
  const row = await db
    .selectFrom('banking_accounts')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new Problem('not-found', `No account with id ${id} exists for this merchant.`, { errors: [at] });
  return row;
}

export async function findCounterparty(
  db: Kysely<Database>,
  merchantId: number,
  id: number,
  at: FieldError,
): Promise<Selectable<BankingCounterpartyTable>> {
  const row = await db
    .selectFrom('banking_counterparties')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new Problem('not-found', `No counterparty with id ${id} exists for this merchant.`, { errors: [at] });
  return row;
}
