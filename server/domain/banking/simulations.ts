// Sandbox simulations (group D's `simulate...` operations): what the bank and the networks would do on their own,
// done now, so an integrator can drive every branch: an inbound credit, a settlement, a return, a notification of
// change, a verification decision. Each goes through the same transitions (and so the same ledger entries and
// events) as the real thing; none is mounted in production (groups/registry.ts), where each answers 404 like an unknown path.
import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/banking/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { toMinorUnits } from '../../platform/money/currencies.js';
import { lastFour } from '../../platform/personal-data/masking.js';
import type { Environment } from '../../platform/environment.js';
import type { BankingTransferTable } from '../../platform/store/banking-schema.js';
import type { Store } from '../../platform/store/database.js';
import type { Database } from '../../platform/store/schema.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import { accountSide, lockAccounts, settlementSide, writeEntries } from './ledger.js';
import { findAccount, pathParam } from './lookups.js';
import { submitted } from './sandbox-settlement.js';
import { recordNocEvent, recordTransferEvent, transferView } from './transfer-events.js';
import { transitionTransfer } from './transfer-transitions.js';
import { checkActive } from './transfers.js';
import type { Verifications } from './verifications.js';
import { TransferReads } from './transfer-reads.js';
import type { IdentityVerification, Transfer } from './views.js';

type Schemas = components['schemas'];
type Row = Selectable<BankingTransferTable>;

/** The reason a return code gives, in the contract's reason codes. */
function returnReason(code: string): Schemas['TransferReason'] {
  const known: Record<string, Schemas['TransferReason']['code']> = {
    R01: 'insufficient_funds',
    R02: 'account_closed',
    R03: 'no_account',
    R04: 'invalid_account_number',
    R05: 'unauthorized_debit',
    R07: 'unauthorized_debit',
    R08: 'payment_stopped',
    R10: 'unauthorized_debit',
    R29: 'unauthorized_debit',
    AC04: 'account_closed',
    AC01: 'invalid_account_number',
  };
  return { code: known[code] ?? 'network_rejected', networkCode: code, message: `The receiving bank returned the entry: ${code}.` };
}

export class Simulations {
  constructor(
    private readonly store: Store,
    private readonly verifications: Verifications,
    private readonly settings: { environment: Environment; onChange?: () => void },
  ) {
    this.reads = new TransferReads(store);
  }

  /** What a replayed create answers: the resource as it is now. */
  private readonly reads: TransferReads;

  /** A simulation's write, once committed: the engine and the dispatcher are told (not for a replay, which wrote nothing). */
  private async changed<T extends object>(write: Promise<T>): Promise<T> {
    const result = await write;
    if (!('replayed' in result && result.replayed)) this.settings.onChange?.();
    return result;
  }

  /**
   * The merchant's transfer, locked for the rest of the transaction (PostgreSQL), or not-found (another merchant's is
   * not found either). Locked before anything else, as the transfer engine locks its transfers before their accounts:
   * the engine skips it meanwhile, and the status checked is the one changed.
   */
  private async transfer(db: Kysely<Database>, merchantId: number, transferId: number): Promise<Row> {
    const row = await db
      .selectFrom('banking_transfers')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('id', '=', transferId)
      .$if(this.store.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row)
      throw new Problem('not-found', `No transfer with id ${transferId} exists for this merchant.`, {
        errors: [pathParam('transferId', 'unknown transfer')],
      });
    return row;
  }

  /** An inbound ACH credit or wire into one of the merchant's accounts, completed at once. */
  async inboundTransfer(
    merchantId: number,
    body: Schemas['InboundTransferSimulationRequest'],
    key?: string,
  ): Promise<StoredResponse<Transfer>> {
    if (body.currency !== 'USD')
      throw new Problem('unsupported-currency', `Accounts hold only USD, not ${body.currency}.`, {
        errors: [bodyField('currency', 'only USD')],
      });
    const amountMinor = toMinorUnits(body.amount, body.currency, { amount: 'amount', currency: 'currency' });
    return this.changed(
      idempotent(this.store, claimOf(`merchant:${merchantId}`, 'simulateInboundTransfer', key, body), {
        current: (first: Transfer) => this.reads.get(merchantId, first.id),
        run: async (trx) => {
          const found = await findAccount(trx, merchantId, body.accountId, bodyField('accountId', 'unknown account'));
          const account = (await lockAccounts(trx, this.store.dialect, [Number(found.id)])).get(Number(found.id))!;
          await checkActive(trx, account, 'accountId');
          const now = Date.now();
          const rail = body.rail === 'ACH' ? 'INBOUND_ACH' : 'INBOUND_WIRE';
          const pending = await trx
            .insertInto('banking_transfers')
            .values({
              merchant_id: merchantId,
              business_id: Number(account.business_id),
              environment: this.settings.environment,
              type: rail,
              status: 'pending',
              amount_minor: amountMinor,
              currency: 'USD',
              ledger_amount_minor: amountMinor,
              account_id: Number(account.id),
              from_account_id: null,
              from_counterparty_id: null,
              from_name: body.originatorName,
              from_number_last4: '0000',
              to_account_id: Number(account.id),
              to_counterparty_id: null,
              to_name: account.account_name,
              to_number_last4: lastFour(account.account_number),
              description: body.description ?? null,
              external_id: null,
              ach: null,
              wire: null,
              funding_transfer_id: null,
              reasons: '[]',
              next_step_at: null,
              return_code: null,
              returned_at: null,
              change_code: null,
              corrected_data: null,
              noc_received_at: null,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          const external = settlementSide(rail === 'INBOUND_ACH' ? 'ACH_PUSH' : 'WIRE_DOMESTIC');
          await writeEntries(trx, Number(pending.id), external, accountSide(Number(account.id)), amountMinor, 'USD', 'pending', now);
          await recordTransferEvent(trx, pending, 'transfer.created', now);
          const completed = await transitionTransfer(trx, pending, 'completed', { now });
          return { status: 201, body: await transferView(trx, completed, now) };
        },
      }),
    );
  }

  /** Decides a pending or processing ACH or wire transfer now: completed or failed. */
  async settle(merchantId: number, transferId: number, to: 'completed' | 'failed'): Promise<Transfer> {
    return this.changed(
      this.store.db.transaction().execute(async (trx) => {
        let row = await this.transfer(trx, merchantId, transferId);
        if (!['pending', 'processing'].includes(row.status) || row.type === 'INTERNAL')
          throw new Problem(
            'conflict',
            `Transfer ${transferId} is ${row.status}; only a pending or processing ACH or wire transfer settles.`,
          );
        const now = Date.now();
        if (row.status === 'pending') row = await transitionTransfer(trx, row, 'processing', { now, ...submitted(row, now) });
        row =
          to === 'completed'
            ? await transitionTransfer(trx, row, 'completed', { now })
            : await transitionTransfer(trx, row, 'failed', {
                now,
                reasons: [{ code: 'network_rejected', networkCode: null, message: 'Rejected by a simulated settlement.' }],
              });
        return transferView(trx, row, now);
      }),
    );
  }

  /** Returns a completed ACH or wire transfer with the code given: reversing entries, status `returned`. */
  async returnTransfer(merchantId: number, transferId: number, returnCode: string): Promise<Transfer> {
    return this.changed(
      this.store.db.transaction().execute(async (trx) => {
        const row = await this.transfer(trx, merchantId, transferId);
        if (row.status !== 'completed' || !['ACH_PULL', 'ACH_PUSH', 'WIRE_DOMESTIC', 'WIRE_INTERNATIONAL'].includes(row.type))
          throw new Problem(
            'conflict',
            `Transfer ${transferId} is a ${row.status} ${row.type} transfer; only a completed ACH or wire transfer is returned.`,
          );
        const now = Date.now();
        const returned = await transitionTransfer(trx, row, 'returned', {
          now,
          reasons: [returnReason(returnCode)],
          returnCode,
        });
        return transferView(trx, returned, now);
      }),
    );
  }

  /** Records a notification of change on an ACH transfer that reached the network; moves no money. */
  async notificationOfChange(
    merchantId: number,
    transferId: number,
    body: Schemas['NotificationOfChangeSimulationRequest'],
  ): Promise<Transfer> {
    return this.changed(
      this.store.db.transaction().execute(async (trx) => {
        const row = await this.transfer(trx, merchantId, transferId);
        if (row.ach === null || !['processing', 'completed', 'returned'].includes(row.status))
          throw new Problem(
            'conflict',
            `Transfer ${transferId} is a ${row.status} ${row.type} transfer; only an ACH entry sent to the network gets a notification of change.`,
          );
        const now = Date.now();
        const updated = await trx
          .updateTable('banking_transfers')
          .set({ change_code: body.changeCode, corrected_data: JSON.stringify(body.correctedData), noc_received_at: now })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordNocEvent(trx, updated, now);
        return transferView(trx, updated, now);
      }),
    );
  }

  /** Decides a pending or needs_review verification of one of the merchant's businesses. */
  async decideVerification(
    merchantId: number,
    verificationId: number,
    body: Schemas['VerificationDecisionSimulationRequest'],
  ): Promise<IdentityVerification> {
    return this.verifications.decide(verificationId, body.status, body.reasons ?? [], merchantId);
  }
}
