// Bank and IBAN accounts of a payee. Numbers are stored whole (the rail needs them) and leave the service
// only as their last 4 characters. Disabling keeps the record with active = false.
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/merchant/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { newPayeeAccountId } from '../../platform/ids/identifiers.js';
import { lastFourOrNull } from '../../platform/personal-data/masking.js';
import { createWithinLimit, type CountLimit } from '../../platform/store/count-limit.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, type StoredResponse } from '../../platform/store/idempotency.js';
import type { PayeeAccountTable } from '../../platform/store/schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { ibanIsValid } from './iban.js';
import type { Payees } from './payees.js';

type Schemas = components['schemas'];
export type PayeeAccount = Schemas['PayeeAccount'];
type AccountRequest = Schemas['PayeeAccountRequest'];

export const maxAccountsPerPayee = 20;

export function toPayeeAccount(row: Selectable<PayeeAccountTable>): PayeeAccount {
  return {
    payeeId: Number(row.payee_id),
    payeeAccountId: row.id,
    type: row.type,
    accountHolderName: row.holder_name,
    bankName: row.bank_name,
    routingNumber: row.routing_number,
    accountNumber: lastFourOrNull(row.account_number),
    bankClearingSystemCode: row.clearing_system_code,
    branchTransitNumber: row.branch_transit_number,
    IBAN: lastFourOrNull(row.iban),
    Currency: row.currency,
    accountType: row.account_type,
    accountTypeId: row.account_type === null ? null : row.account_type === 'CHECKINGS' ? 1 : 2,
    active: row.active === 1,
    createdOn: isoTimestamp(row.created_at),
  };
}

function columnsOf(body: AccountRequest) {
  if (body.type === 'IBAN' && body.IBAN && !ibanIsValid(body.IBAN)) {
    throw new Problem('business-rule', "The IBAN's check digits do not match its number.", {
      errors: [bodyField('IBAN', 'check digits do not match')],
    });
  }
  return {
    type: body.type,
    holder_name: body.accountHolderName ?? null,
    bank_name: body.bankName ?? null,
    routing_number: body.routingNumber ?? null,
    account_number: body.accountNumber ?? null,
    clearing_system_code: body.bankClearingSystemCode ?? null,
    branch_transit_number: body.branchTransitNumber ?? null,
    iban: body.IBAN ?? null,
    currency: body.Currency ?? null,
    account_type: body.accountType ?? null,
  };
}

export class PayeeAccounts {
  constructor(
    private readonly store: Store,
    private readonly payees: Payees,
  ) {}

  /** Under the Idempotency-Key, when sent: the request it names is the payee and the body. */
  async create(
    merchantId: number,
    payeeId: number,
    body: AccountRequest,
    idempotencyKey?: string,
  ): Promise<StoredResponse<Schemas['PayeeAccountCreated']>> {
    await this.payees.row(merchantId, payeeId);
    const columns = columnsOf(body);
    const limit: CountLimit = {
      collection: 'payee_accounts',
      owner: payeeId,
      max: maxAccountsPerPayee,
      refusal: `A payee holds at most ${maxAccountsPerPayee} accounts.`,
      count: async (trx) =>
        (
          await trx
            .selectFrom('payee_accounts')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('payee_id', '=', payeeId)
            .executeTakeFirstOrThrow()
        ).count,
    };
    const claim = claimOf(`merchant:${merchantId}`, 'createPayeeAccount', idempotencyKey, { payeeId, body });
    return createWithinLimit(this.store, limit, claim, {
      current: async (first) => {
        await this.row(merchantId, payeeId, first.PayeeAccountId);
        return first;
      },
      run: async (trx) => {
        const id = newPayeeAccountId();
        const now = Date.now();
        await trx
          .insertInto('payee_accounts')
          .values({ id, payee_id: payeeId, merchant_id: merchantId, ...columns, active: 1, created_at: now, updated_at: now })
          .execute();
        return { status: 201, body: { PayeeAccountId: id } };
      },
    });
  }

  async list(merchantId: number, payeeId: number): Promise<PayeeAccount[]> {
    await this.payees.row(merchantId, payeeId);
    const rows = await this.store.db
      .selectFrom('payee_accounts')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('payee_id', '=', payeeId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toPayeeAccount);
  }

  async row(merchantId: number, payeeId: number, accountId: string): Promise<Selectable<PayeeAccountTable>> {
    const row = await this.store.db
      .selectFrom('payee_accounts')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('payee_id', '=', payeeId)
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new Problem('not-found', `Payee ${payeeId} has no account ${accountId}.`);
    return row;
  }

  async get(merchantId: number, payeeId: number, accountId: string): Promise<PayeeAccount> {
    return toPayeeAccount(await this.row(merchantId, payeeId, accountId));
  }

  async update(merchantId: number, payeeId: number, accountId: string, body: AccountRequest): Promise<PayeeAccount> {
    const columns = columnsOf(body);
    const current = await this.row(merchantId, payeeId, accountId);
    if (current.active !== 1) throw new Problem('conflict', `Account ${accountId} is disabled and cannot be changed.`);
    const row = await this.store.db
      .updateTable('payee_accounts')
      .set({ ...columns, updated_at: Date.now() })
      .where('id', '=', accountId)
      .where('merchant_id', '=', merchantId)
      .where('active', '=', 1)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new Problem('conflict', `Account ${accountId} is disabled and cannot be changed.`);
    return toPayeeAccount(row);
  }

  async disable(merchantId: number, payeeId: number, accountId: string): Promise<void> {
    await this.row(merchantId, payeeId, accountId);
    await this.store.db
      .updateTable('payee_accounts')
      .set({ active: 0, updated_at: Date.now() })
      .where('id', '=', accountId)
      .where('merchant_id', '=', merchantId)
      .execute();
  }
}
