// The five ways money moves: ACH pull and push, domestic and international wires, internal (book)
// transfers. Each is one transaction: checks, the account locks, any funding-account sweep, the transfer,
// its balanced ledger entries (held: `pending`) and the balance changes, and its `transfer.created` event. A
// refused debit writes nothing: the transaction rolls back. An internal transfer completes in the same
// transaction; ACH and wires are then taken through the network's steps by the transfer engine
// (transfer-engine.ts, paced by SANDBOX_STEP_MS in the sandbox; held `pending` in production, which has no rail).
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { toDecimalString, toMinorUnits } from '../../platform/money/currencies.js';
import { lastFour } from '../../platform/personal-data/masking.js';
import type { BankingAccountTable, BankingCounterpartyTable, TransferType, OutboundRail } from '../../platform/store/banking-schema.js';
import type { Environment } from '../../platform/environment.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import { storedMetadata, type Metadata } from '../../platform/store/metadata.js';
import type { Database } from '../../platform/store/schema.js';
import { convertToUsd } from './fx-rates.js';
import { accountSide, insufficientFunds, lockAccounts, settlementSide, writeEntries, type LedgerSide } from './ledger.js';
import { findAccount, findCounterparty } from './lookups.js';
import { recordTransferEvent, transferView } from './transfer-events.js';
import { transitionTransfer } from './transfer-transitions.js';
import { TransferReads } from './transfer-reads.js';
import type { Transfer } from './views.js';

type Schemas = components['schemas'];
type AccountRow = Selectable<BankingAccountTable>;
type CounterpartyRow = Selectable<BankingCounterpartyTable>;
type Rail = OutboundRail;

/** Same-day ACH carries at most 1,000,000.00 per entry. */
const sameDayLimitMinor = 100_000_000;

interface Party {
  accountId: number | null;
  counterpartyId: number | null;
  name: string;
  last4: string;
}

/** What one request asks the ledger to do, once its records are found and checked. */
interface Plan {
  type: TransferType;
  /** The request's accountId, already checked to be the merchant's. */
  account: AccountRow;
  /** The other account of an internal transfer. */
  toAccount?: AccountRow;
  /** Whether the request's account is the debited side (all but ACH pull). */
  debitsAccount: boolean;
  amountMinor: number;
  currency: string;
  /** USD minor units the ledger moves. */
  ledgerAmountMinor: number;
  from: Party;
  to: Party;
  debit: LedgerSide;
  credit: LedgerSide;
  ach: Schemas['AchTransferDetails'] | null;
  wire: Schemas['WireTransferDetails'] | null;
  description: string | null;
  externalId: string | null;
  metadata: Metadata | undefined;
}

const accountParty = (a: AccountRow): Party => ({
  accountId: Number(a.id),
  counterpartyId: null,
  name: a.account_name,
  last4: lastFour(a.account_number),
});

function onlyUsd(currency: string): void {
  if (currency !== 'USD')
    throw new Problem('unsupported-currency', `This rail moves only USD, not ${currency}.`, {
      errors: [bodyField('currency', 'only USD')],
    });
}

/** The next banking day after `now` (UTC), skipping weekends: the settlement date of next-day ACH. */
export function nextBankingDay(now: number): string {
  const day = new Date(now);
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6);
  return day.toISOString().slice(0, 10);
}

/** The counterparty must belong to the account's business and carry details for the rail. */
function checkCounterparty(cp: CounterpartyRow, account: AccountRow, rail: Rail): void {
  if (Number(cp.business_id) !== Number(account.business_id)) {
    throw new Problem('business-rule', `Counterparty ${cp.id} belongs to another business than account ${account.id}.`, {
      errors: [bodyField('counterpartyId', 'counterparty of another business')],
    });
  }
  const mismatch = (detail: string) =>
    new Problem('counterparty-rail-mismatch', detail, { errors: [bodyField('counterpartyId', 'no details for this rail')] });
  if ((rail === 'ACH_PULL' || rail === 'ACH_PUSH') && cp.ach_account_number === null)
    throw mismatch(`Counterparty ${cp.id} has no ACH details.`);
  if (rail === 'WIRE_DOMESTIC' && cp.wire_bank_id_type !== 'ABA')
    throw mismatch(`Counterparty ${cp.id} has no wire details with an ABA bank.`);
  if (rail === 'WIRE_INTERNATIONAL' && cp.wire_bank_id_type !== 'BIC')
    throw mismatch(`Counterparty ${cp.id} has no wire details with a BIC bank.`);
}

export interface TransferSettings {
  /** Delay before the first step of a new ACH or wire transfer (SANDBOX_STEP_MS). */
  stepMs: number;
  environment: Environment;
  /** Called after a write that recorded events (a transfer created, a simulation, a verification decided), so the
   * engine and the webhook dispatcher start at once instead of at their next poll. */
  onChange?: () => void;
}

export class Transfers {
  constructor(
    private readonly store: Store,
    private readonly settings: TransferSettings,
  ) {
    this.reads = new TransferReads(store);
  }

  /** What a replayed create answers: the resource as it is now. */
  private readonly reads: TransferReads;

  async achPull(merchantId: number, body: Schemas['AchPullRequest'], key?: string): Promise<StoredResponse<Transfer>> {
    return this.ach('ACH_PULL', 'createAchPull', merchantId, body, key);
  }

  async achPush(merchantId: number, body: Schemas['AchPushRequest'], key?: string): Promise<StoredResponse<Transfer>> {
    return this.ach('ACH_PUSH', 'createAchPush', merchantId, body, key);
  }

  private async ach(
    type: 'ACH_PULL' | 'ACH_PUSH',
    operationId: string,
    merchantId: number,
    body: Schemas['AchPullRequest'] | Schemas['AchPushRequest'],
    key?: string,
  ): Promise<StoredResponse<Transfer>> {
    onlyUsd(body.currency);
    const amountMinor = toMinorUnits(body.amount, body.currency, { amount: 'amount', currency: 'currency' });
    const sameDay = body.sameDay ?? false;
    if (sameDay && amountMinor > sameDayLimitMinor) {
      throw new Problem('same-day-limit', 'Same-day ACH carries at most 1,000,000.00; send it next-day.', {
        errors: [bodyField('amount', 'above the same-day limit')],
      });
    }
    return this.run(operationId, merchantId, body, key, async (trx) => {
      const account = await findAccount(trx, merchantId, body.accountId, bodyField('accountId', 'unknown account'));
      const cp = await findCounterparty(trx, merchantId, body.counterpartyId, bodyField('counterpartyId', 'unknown counterparty'));
      checkCounterparty(cp, account, type);
      const now = Date.now();
      const counterparty: Party = {
        accountId: null,
        counterpartyId: Number(cp.id),
        name: cp.name,
        last4: lastFour(cp.ach_account_number!),
      };
      const pull = type === 'ACH_PULL';
      return {
        type,
        account,
        debitsAccount: !pull,
        amountMinor,
        currency: body.currency,
        ledgerAmountMinor: amountMinor,
        from: pull ? counterparty : accountParty(account),
        to: pull ? accountParty(account) : counterparty,
        debit: pull ? settlementSide(type) : accountSide(Number(account.id)),
        credit: pull ? accountSide(Number(account.id)) : settlementSide(type),
        ach: {
          secCode: body.secCode ?? (cp.type === 'BUSINESS' ? 'CCD' : 'PPD'),
          sameDay,
          effectiveDate: sameDay ? new Date(now).toISOString().slice(0, 10) : nextBankingDay(now),
          traceNumber: null,
        },
        wire: null,
        description: body.description ?? null,
        externalId: body.externalId ?? null,
        metadata: body.metadata,
      };
    });
  }

  async domesticWire(merchantId: number, body: Schemas['DomesticWireRequest'], key?: string): Promise<StoredResponse<Transfer>> {
    onlyUsd(body.currency);
    const amountMinor = toMinorUnits(body.amount, body.currency, { amount: 'amount', currency: 'currency' });
    return this.run('createDomesticWire', merchantId, body, key, async (trx) => {
      const account = await findAccount(trx, merchantId, body.accountId, bodyField('accountId', 'unknown account'));
      const cp = await findCounterparty(trx, merchantId, body.counterpartyId, bodyField('counterpartyId', 'unknown counterparty'));
      checkCounterparty(cp, account, 'WIRE_DOMESTIC');
      return {
        type: 'WIRE_DOMESTIC',
        account,
        debitsAccount: true,
        amountMinor,
        currency: body.currency,
        ledgerAmountMinor: amountMinor,
        from: accountParty(account),
        to: { accountId: null, counterpartyId: Number(cp.id), name: cp.name, last4: lastFour(cp.wire_account_number!) },
        debit: accountSide(Number(account.id)),
        credit: settlementSide('WIRE_DOMESTIC'),
        ach: null,
        wire: {
          purposeOfPayment: null,
          chargeBearer: null,
          remittanceInformation: body.remittanceInformation ?? null,
          imad: null,
          uetr: null,
          fx: null,
        },
        description: body.description ?? null,
        externalId: body.externalId ?? null,
        metadata: body.metadata,
      };
    });
  }

  async internationalWire(merchantId: number, body: Schemas['InternationalWireRequest'], key?: string): Promise<StoredResponse<Transfer>> {
    const amountMinor = toMinorUnits(body.amount, body.currency, { amount: 'amount', currency: 'currency' });
    // The amount is what the beneficiary receives; the account is debited its USD equivalent at today's rate.
    const conversion = body.currency === 'USD' ? undefined : convertToUsd(amountMinor, body.currency);
    // Rounded up, the debit of a positive amount is at least a cent: no amount is too small to convert.
    const ledgerAmountMinor = conversion ? conversion.sourceMinor : amountMinor;
    return this.run('createInternationalWire', merchantId, body, key, async (trx) => {
      const account = await findAccount(trx, merchantId, body.accountId, bodyField('accountId', 'unknown account'));
      const cp = await findCounterparty(trx, merchantId, body.counterpartyId, bodyField('counterpartyId', 'unknown counterparty'));
      checkCounterparty(cp, account, 'WIRE_INTERNATIONAL');
      const fx = conversion
        ? {
            sourceAmount: toDecimalString(ledgerAmountMinor, 'USD'),
            sourceCurrency: 'USD',
            targetAmount: toDecimalString(amountMinor, body.currency),
            targetCurrency: body.currency,
            rate: conversion.rate,
          }
        : null;
      return {
        type: 'WIRE_INTERNATIONAL',
        account,
        debitsAccount: true,
        amountMinor,
        currency: body.currency,
        ledgerAmountMinor,
        from: accountParty(account),
        to: { accountId: null, counterpartyId: Number(cp.id), name: cp.name, last4: lastFour(cp.wire_account_number!) },
        debit: accountSide(Number(account.id)),
        credit: settlementSide('WIRE_INTERNATIONAL'),
        ach: null,
        wire: {
          purposeOfPayment: body.purposeOfPayment,
          chargeBearer: body.chargeBearer ?? 'SHA',
          remittanceInformation: body.remittanceInformation ?? null,
          imad: null,
          uetr: null,
          fx,
        },
        description: body.description ?? null,
        externalId: body.externalId ?? null,
        metadata: body.metadata,
      };
    });
  }

  async internal(merchantId: number, body: Schemas['InternalTransferRequest'], key?: string): Promise<StoredResponse<Transfer>> {
    onlyUsd(body.currency);
    const amountMinor = toMinorUnits(body.amount, body.currency, { amount: 'amount', currency: 'currency' });
    if (body.accountId === body.toAccountId) {
      throw new Problem('business-rule', 'An internal transfer moves money between two different accounts.', {
        errors: [bodyField('toAccountId', 'same account as accountId')],
      });
    }
    return this.run('createInternalTransfer', merchantId, body, key, async (trx) => {
      const account = await findAccount(trx, merchantId, body.accountId, bodyField('accountId', 'unknown account'));
      const toAccount = await findAccount(trx, merchantId, body.toAccountId, bodyField('toAccountId', 'unknown account'));
      return {
        type: 'INTERNAL',
        account,
        toAccount,
        debitsAccount: true,
        amountMinor,
        currency: body.currency,
        ledgerAmountMinor: amountMinor,
        from: accountParty(account),
        to: accountParty(toAccount),
        debit: accountSide(Number(account.id)),
        credit: accountSide(Number(toAccount.id)),
        ach: null,
        wire: null,
        description: body.description ?? null,
        externalId: body.externalId ?? null,
        metadata: body.metadata,
      };
    });
  }

  /** The shared path: plan (find and check), lock, check states and funds, write, settle, answer. */
  private async run(
    operationId: string,
    merchantId: number,
    body: unknown,
    key: string | undefined,
    plan: (trx: Transaction<Database>) => Promise<Plan>,
  ): Promise<StoredResponse<Transfer>> {
    const result = await idempotent(this.store, claimOf(`merchant:${merchantId}`, operationId, key, body), {
      current: (first: Transfer) => this.reads.get(merchantId, first.id),
      run: async (trx) => {
        const p = await plan(trx);
        const accountId = Number(p.account.id);
        const fundingId = p.debitsAccount && p.account.funding_account_id !== null ? Number(p.account.funding_account_id) : undefined;
        const toId = p.toAccount ? Number(p.toAccount.id) : undefined;
        const locked = await lockAccounts(trx, this.store.dialect, [
          accountId,
          ...(fundingId === undefined ? [] : [fundingId]),
          ...(toId === undefined ? [] : [toId]),
        ]);
        const account = locked.get(accountId)!;
        await checkActive(trx, account, 'accountId');
        if (toId !== undefined) await checkActive(trx, locked.get(toId)!, 'toAccountId');

        const now = Date.now();
        let fundingTransferId: number | null = null;
        if (p.debitsAccount && Number(account.available_minor) < p.ledgerAmountMinor) {
          // Draw the shortfall from the funding account first (one level: the funding account's own funding is not used).
          const funding = fundingId === undefined ? undefined : locked.get(fundingId);
          const shortfall = p.ledgerAmountMinor - Number(account.available_minor);
          if (funding?.status !== 'active' || Number(funding.available_minor) < shortfall) throw insufficientFunds(accountId);
          fundingTransferId = await this.sweep(trx, merchantId, funding, account, shortfall, now);
        }

        let row = await trx
          .insertInto('banking_transfers')
          .values({
            merchant_id: merchantId,
            business_id: Number(account.business_id),
            environment: this.settings.environment,
            type: p.type,
            status: 'pending',
            amount_minor: p.amountMinor,
            currency: p.currency,
            ledger_amount_minor: p.ledgerAmountMinor,
            account_id: accountId,
            from_account_id: p.from.accountId,
            from_counterparty_id: p.from.counterpartyId,
            from_name: p.from.name,
            from_number_last4: p.from.last4,
            to_account_id: p.to.accountId,
            to_counterparty_id: p.to.counterpartyId,
            to_name: p.to.name,
            to_number_last4: p.to.last4,
            description: p.description,
            external_id: p.externalId,
            metadata: storedMetadata(p.metadata),
            ach: p.ach ? JSON.stringify(p.ach) : null,
            wire: p.wire ? JSON.stringify(p.wire) : null,
            funding_transfer_id: fundingTransferId,
            reasons: '[]',
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeEntries(trx, Number(row.id), p.debit, p.credit, p.ledgerAmountMinor, 'USD', 'pending', now);
        await recordTransferEvent(trx, row, 'transfer.created', now);
        if (p.type === 'INTERNAL') row = await transitionTransfer(trx, row, 'completed', { now });
        else
          row = await trx
            .updateTable('banking_transfers')
            .set({ next_step_at: now + this.settings.stepMs })
            .where('id', '=', row.id)
            .returningAll()
            .executeTakeFirstOrThrow();

        return { status: 201, body: await transferView(trx, row, now) };
      },
    });
    if (result.status === 201 && !result.replayed) this.settings.onChange?.();
    return result;
  }

  /** The internal transfer that moves a debit's shortfall from the funding account; posted at once. */
  private async sweep(
    db: Kysely<Database>,
    merchantId: number,
    funding: AccountRow,
    account: AccountRow,
    amount: number,
    now: number,
  ): Promise<number> {
    const pending = await db
      .insertInto('banking_transfers')
      .values({
        merchant_id: merchantId,
        business_id: Number(funding.business_id),
        environment: this.settings.environment,
        type: 'INTERNAL',
        status: 'pending',
        amount_minor: amount,
        currency: 'USD',
        ledger_amount_minor: amount,
        account_id: Number(funding.id),
        from_account_id: Number(funding.id),
        from_counterparty_id: null,
        from_name: funding.account_name,
        from_number_last4: lastFour(funding.account_number),
        to_account_id: Number(account.id),
        to_counterparty_id: null,
        to_name: account.account_name,
        to_number_last4: lastFour(account.account_number),
        description: `Covers a shortfall of account ${account.id} from its funding account.`,
        external_id: null,
        ach: null,
        wire: null,
        funding_transfer_id: null,
        reasons: '[]',
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeEntries(
      db,
      Number(pending.id),
      accountSide(Number(funding.id)),
      accountSide(Number(account.id)),
      amount,
      'USD',
      'pending',
      now,
    );
    await recordTransferEvent(db, pending, 'transfer.created', now);
    await transitionTransfer(db, pending, 'completed', { now });
    return Number(pending.id);
  }
}

/** Money moves only for an active business, through active accounts (frozen and closed ones refuse it). */
export async function checkActive(db: Kysely<Database>, account: AccountRow, field: string): Promise<void> {
  if (account.status !== 'active') {
    throw new Problem('inactive-account', `Account ${account.id} is ${account.status}.`, {
      errors: [bodyField(field, `account is ${account.status}`)],
    });
  }
  const business = await db
    .selectFrom('banking_businesses')
    .select(['id', 'status'])
    .where('id', '=', account.business_id)
    .executeTakeFirstOrThrow();
  if (business.status !== 'active') {
    throw new Problem('business-rule', `Business ${business.id} is ${business.status}; only an active business moves money.`, {
      errors: [bodyField(field, `business is ${business.status}`)],
    });
  }
}
