// Creating, reading, listing and cancelling payouts. Creation validates the payee and an active account in
// the payout's currency, converts the amount to exact minor units and records the payout with its
// payout.created event in one transaction; the engine (payout-engine.ts) takes it from there.
import type { components, operations } from '../../generated/merchant/schema.js';
import { Problem, bodyField } from '../problems.js';
import { newPayoutReference } from '../ids/identifiers.js';
import { toMinorUnits } from '../money/currencies.js';
import type { Environment } from '../environment.js';
import type { Store } from '../store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../store/idempotency.js';
import { recordEvent, toPayout, transition, type Payout } from './payout-transitions.js';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listPayouts']['parameters']['query']>;

const encodeCursor = (reference: string) => Buffer.from(reference).toString('base64url');
function decodeCursor(cursor: string): string {
  const reference = Buffer.from(cursor, 'base64url').toString();
  if (!/^po_[0-9a-z]{26}$/.test(reference))
    throw new Problem('validation-error', 'The cursor is not one this service issued.', {
      errors: [{ parameter: 'Cursor', detail: 'unknown cursor' }],
    });
  return reference;
}

export interface PayoutSettings {
  /** Delay before each step of a new payout (SANDBOX_STEP_MS). */
  stepMs: number;
  environment: Environment;
  /** Called after a payout is created, so the engine can start at once. */
  onCreated?: () => void;
}

export class Payouts {
  constructor(
    private readonly store: Store,
    private readonly settings: PayoutSettings,
  ) {}

  async create(merchantId: number, body: Schemas['PayoutCreateRequest'], idempotencyKey?: string): Promise<StoredResponse<Payout>> {
    const claim = claimOf(`merchant:${merchantId}`, 'createPayout', idempotencyKey, body);
    const amountMinor = toMinorUnits(body.Amount, body.Currency, { amount: 'Amount', currency: 'Currency' });
    const result = await idempotent(this.store, claim, {
      current: (first: Payout) => this.get(merchantId, first.PayoutUniqueReference),
      run: async (trx) => {
        const payee = await trx
          .selectFrom('payees')
          .select('id')
          .where('merchant_id', '=', merchantId)
          .where('id', '=', body.PayeeId)
          .executeTakeFirst();
        if (!payee)
          throw new Problem('not-found', `No payee with id ${body.PayeeId} exists for this merchant.`, {
            errors: [bodyField('PayeeId', 'unknown payee')],
          });
        let accounts = trx
          .selectFrom('payee_accounts')
          .select(['id', 'active', 'currency'])
          .where('payee_id', '=', body.PayeeId)
          .where('merchant_id', '=', merchantId);
        if (body.PayeeAccountId) accounts = accounts.where('id', '=', body.PayeeAccountId);
        const candidates = await accounts.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
        if (body.PayeeAccountId && candidates.length === 0) {
          throw new Problem('not-found', `Payee ${body.PayeeId} has no account ${body.PayeeAccountId}.`, {
            errors: [bodyField('PayeeAccountId', 'unknown account')],
          });
        }
        const active = candidates.filter((a) => a.active === 1);
        if (active.length === 0) {
          const field = body.PayeeAccountId ? 'PayeeAccountId' : 'PayeeId';
          throw new Problem(
            'inactive-account',
            body.PayeeAccountId ? `Account ${body.PayeeAccountId} is disabled.` : `Payee ${body.PayeeId} has no active account.`,
            {
              errors: [bodyField(field, 'no active account to pay into')],
            },
          );
        }
        // An account is paid in its own currency (one recorded without a Currency takes any): the service does
        // not convert, so a payout the account cannot take is refused before anything is written.
        const account = active.find((a) => a.currency === body.Currency) ?? active.find((a) => a.currency === null);
        if (!account) {
          const held = [...new Set(active.map((a) => a.currency))].join(', ');
          const detail = body.PayeeAccountId
            ? `Account ${body.PayeeAccountId} takes ${held}, not ${body.Currency}.`
            : `Payee ${body.PayeeId} has no active account in ${body.Currency}; its accounts take ${held}.`;
          throw new Problem('business-rule', detail, { errors: [bodyField('Currency', `the account paid into takes ${held}`)] });
        }
        const now = Date.now();
        const row = await trx
          .insertInto('payouts')
          .values({
            reference: newPayoutReference(),
            merchant_id: merchantId,
            payee_id: body.PayeeId,
            account_id: account.id,
            amount_minor: amountMinor,
            currency: body.Currency,
            description: body.Description ?? null,
            status: 'created',
            reasons: '[]',
            environment: this.settings.environment,
            created_at: now,
            updated_at: now,
            next_step_at: now + this.settings.stepMs,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordEvent(trx, row, 'created', now, []);
        return { status: 202, body: toPayout(row) };
      },
    });
    if (!result.replayed) this.settings.onCreated?.();
    return result;
  }

  async get(merchantId: number, reference: string): Promise<Payout> {
    const row = await this.store.db
      .selectFrom('payouts')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (!row) throw new Problem('not-found', `No payout ${reference} exists for this merchant.`);
    return toPayout(row);
  }

  /** Newest first, by reference (references sort by creation time); the cursor is the last reference seen. */
  async list(merchantId: number, query: ListQuery): Promise<Schemas['PayoutList']> {
    const pageSize = query.PageSize ?? 25;
    let q = this.store.db.selectFrom('payouts').selectAll().where('merchant_id', '=', merchantId);
    if (query.PayeeId !== undefined) q = q.where('payee_id', '=', query.PayeeId);
    if (query.Status !== undefined) q = q.where('status', '=', query.Status);
    if (query.Cursor !== undefined) q = q.where('reference', '<', decodeCursor(query.Cursor));
    const rows = await q
      .orderBy('reference', 'desc')
      .limit(pageSize + 1)
      .execute();
    const page = rows.slice(0, pageSize);
    return { data: page.map(toPayout), nextCursor: rows.length > pageSize ? encodeCursor(page[page.length - 1]!.reference) : null };
  }

  /** Cancels a payout still in `created`; a cancelled one is returned as is; any other state is a 409. */
  async cancel(merchantId: number, reference: string): Promise<Payout> {
    return this.store.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('payouts')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('reference', '=', reference)
        .executeTakeFirst();
      if (!row) throw new Problem('not-found', `No payout ${reference} exists for this merchant.`);
      if (row.status === 'cancelled') return toPayout(row);
      const refused = () =>
        new Problem(
          'payout-not-cancellable',
          `Payout ${reference} is ${row.status}; only a payout that has not started processing can be cancelled.`,
        );
      if (row.status !== 'created') throw refused();
      const [cancelled] = await transition(trx, [reference], 'created', 'cancelled', {
        reasons: [{ code: 'cancelled_by_request', message: 'The merchant cancelled the payout.' }],
        nextStepAt: null,
      });
      if (!cancelled) {
        // The engine started processing between our read and our update: it won the race.
        const now = await trx.selectFrom('payouts').select('status').where('reference', '=', reference).executeTakeFirstOrThrow();
        throw new Problem(
          'payout-not-cancellable',
          `Payout ${reference} is ${now.status}; only a payout that has not started processing can be cancelled.`,
        );
      }
      return toPayout(cancelled);
    });
  }
}
