// Deposit accounts of a business: opened only for an active, approved business, in USD, at a zero
// balance. A funding account (fundingAccountNumber) covers the new account's shortfalls (transfers.ts);
// a preset number is the caller's choice, otherwise the bank assigns a random 12-digit one.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import type { Database } from '../../platform/store/schema.js';
import { conflictOn } from '../../platform/store/unique-violation.js';
import { findAccount, findBusiness, pathParam } from './lookups.js';
import { BankingReads } from './reads.js';
import { toAccount, toBalance, type Account, type Balance } from './views.js';
import { cutToCodePoints } from '../../platform/text/code-points.js';

type Schemas = components['schemas'];

const numberIndex = { name: 'banking_accounts_number', columns: 'banking_accounts.account_number' };
const numberTaken = () =>
  new Problem('conflict', 'The bank already uses this account number.', { errors: [bodyField('presetAccountNumber', 'already in use')] });

/** A free 12-digit number, not starting with 0. The unique index still guards the (unlikely) race. */
async function assignNumber(db: Kysely<Database>): Promise<string> {
  for (;;) {
    const candidate =
      String(randomInt(1, 10)) + String(randomInt(0, 100_000)).padStart(5, '0') + String(randomInt(0, 1_000_000)).padStart(6, '0');
    const taken = await db.selectFrom('banking_accounts').select('id').where('account_number', '=', candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
}

export class BankAccounts {
  /** What a replayed create answers: the resource as it is now. */
  private readonly reads: BankingReads;

  constructor(private readonly store: Store) {
    this.reads = new BankingReads(store);
  }

  async create(
    merchantId: number,
    businessId: number,
    body: Schemas['AccountCreateRequest'],
    idempotencyKey?: string,
  ): Promise<StoredResponse<Account>> {
    const request = { businessId, ...body };
    return conflictOn(numberIndex, numberTaken, () =>
      idempotent(this.store, claimOf(`merchant:${merchantId}`, 'createAccount', idempotencyKey, request), {
        current: (first: Account) => this.reads.account(merchantId, first.businessId, first.id),
        run: async (trx) => {
          const business = await findBusiness(trx, merchantId, businessId, pathParam('businessId', 'unknown business'));
          // A suspended or closed business breaks the rule every banking create shares; an active one that is not
          // approved yet has a kind of its own, since verifying it is what the caller does next.
          if (business.status !== 'active') {
            throw new Problem('business-rule', `Business ${businessId} is ${business.status}; accounts open only for an active business.`, {
              errors: [pathParam('businessId', `business is ${business.status}`)],
            });
          }
          if (business.verification_status !== 'approved') {
            throw new Problem(
              'business-not-verified',
              `Business ${businessId} has verificationStatus ${business.verification_status}; accounts open once it is approved.`,
              { errors: [pathParam('businessId', 'business not verified')] },
            );
          }
          let fundingAccountId: number | null = null;
          if (body.fundingAccountNumber) {
            const funding = await trx
              .selectFrom('banking_accounts')
              .select('id')
              .where('account_number', '=', body.fundingAccountNumber)
              .where('business_id', '=', businessId)
              .where('status', '=', 'active')
              .where('currency', '=', 'USD')
              .executeTakeFirst();
            if (!funding) {
              throw new Problem('invalid-funding-account', 'The funding account number is not an active USD account of this business.', {
                errors: [bodyField('fundingAccountNumber', 'not an active account of this business')],
              });
            }
            fundingAccountId = Number(funding.id);
          }
          if (body.presetAccountNumber) {
            const taken = await trx
              .selectFrom('banking_accounts')
              .select('id')
              .where('account_number', '=', body.presetAccountNumber)
              .executeTakeFirst();
            if (taken) throw numberTaken();
          }
          const accountType = body.accountType ?? 'CHECKING';
          const now = Date.now();
          const row = await trx
            .insertInto('banking_accounts')
            .values({
              business_id: businessId,
              merchant_id: merchantId,
              account_name:
                body.accountName ?? cutToCodePoints(`${business.legal_name} ${accountType === 'CHECKING' ? 'Checking' : 'Savings'}`, 100),
              account_type: accountType,
              account_number: body.presetAccountNumber ?? (await assignNumber(trx)),
              funding_account_id: fundingAccountId,
              currency: 'USD',
              status: 'active',
              ledger_minor: 0,
              available_minor: 0,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return { status: 201, body: toAccount(row) };
        },
      }),
    );
  }

  async balance(merchantId: number, accountId: number): Promise<Balance> {
    return toBalance(await findAccount(this.store.db, merchantId, accountId, pathParam('accountId', 'unknown account')));
  }
}
