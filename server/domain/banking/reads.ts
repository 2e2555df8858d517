// Reads of what group D's creates made: the merchant's businesses, a business's accounts and counterparties, one
// account, counterparty or identity verification. Each is scoped to the calling merchant (lookups.ts): another
// merchant's record is not found, exactly like a missing one. Lists are cursor pages, newest first (store/cursor.ts).
import type { components, operations } from '../../../generated/banking/schema.js';
import { Problem } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { cursorPage, idCursorList } from '../../platform/store/cursor.js';
import { findBusiness, findCounterparty, pathParam } from './lookups.js';
import {
  toAccount,
  toBusiness,
  toCounterparty,
  toVerification,
  type Account,
  type Counterparty,
  type IdentityVerification,
} from './views.js';

type Schemas = components['schemas'];
type QueryOf<Id extends keyof operations> = NonNullable<operations[Id]['parameters']['query']>;

const businessCursors = idCursorList('business');
const accountCursors = idCursorList('account');
const counterpartyCursors = idCursorList('counterparty');
const byId = (row: { id: number }) => Number(row.id);

export class BankingReads {
  constructor(private readonly store: Store) {}

  async businesses(merchantId: number, query: QueryOf<'listBusinesses'>): Promise<Schemas['BusinessList']> {
    const { page, nextCursor } = await cursorPage(
      businessCursors,
      query,
      (below, limit) =>
        this.store.db
          .selectFrom('banking_businesses')
          .selectAll()
          .where('merchant_id', '=', merchantId)
          .$if(below !== undefined, (q) => q.where('id', '<', below!))
          .orderBy('id', 'desc')
          .limit(limit)
          .execute(),
      byId,
    );
    return { data: page.map(toBusiness), nextCursor };
  }

  async accounts(merchantId: number, businessId: number, query: QueryOf<'listBusinessAccounts'>): Promise<Schemas['AccountList']> {
    const { page, nextCursor } = await cursorPage(
      accountCursors,
      query,
      async (below, limit) => {
        await findBusiness(this.store.db, merchantId, businessId, pathParam('id', 'unknown business'));
        return this.store.db
          .selectFrom('banking_accounts')
          .selectAll()
          .where('business_id', '=', businessId)
          .$if(below !== undefined, (q) => q.where('id', '<', below!))
          .orderBy('id', 'desc')
          .limit(limit)
          .execute();
      },
      byId,
    );
    return { data: page.map((row) => toAccount(row)), nextCursor };
  }

  /** An account of the business in the path: one of another business is not found, like a missing one. */
  async account(merchantId: number, businessId: number, accountId: number): Promise<Account> {
    await findBusiness(this.store.db, merchantId, businessId, pathParam('id', 'unknown business'));
    const row = await this.store.db
      .selectFrom('banking_accounts')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row)
      throw new Problem('not-found', `Business ${businessId} has no account with id ${accountId}.`, {
        errors: [pathParam('accountId', 'unknown account')],
      });
    return toAccount(row);
  }

  async counterparties(
    merchantId: number,
    businessId: number,
    query: QueryOf<'listBankingCounterparties'>,
  ): Promise<Schemas['CounterpartyList']> {
    const { page, nextCursor } = await cursorPage(
      counterpartyCursors,
      query,
      async (below, limit) => {
        await findBusiness(this.store.db, merchantId, businessId, pathParam('id', 'unknown business'));
        return this.store.db
          .selectFrom('banking_counterparties')
          .selectAll()
          .where('business_id', '=', businessId)
          .$if(below !== undefined, (q) => q.where('id', '<', below!))
          .orderBy('id', 'desc')
          .limit(limit)
          .execute();
      },
      byId,
    );
    return { data: page.map(toCounterparty), nextCursor };
  }

  async counterparty(merchantId: number, counterpartyId: number): Promise<Counterparty> {
    return toCounterparty(
      await findCounterparty(this.store.db, merchantId, counterpartyId, pathParam('counterpartyId', 'unknown counterparty')),
    );
  }

  async verification(merchantId: number, verificationId: number): Promise<IdentityVerification> {
    const row = await this.store.db
      .selectFrom('banking_verifications')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('id', '=', verificationId)
      .executeTakeFirst();
    if (!row)
      throw new Problem('not-found', `No identity verification with id ${verificationId} exists for this merchant.`, {
        errors: [pathParam('verificationId', 'unknown verification')],
      });
    return toVerification(row);
  }
}
