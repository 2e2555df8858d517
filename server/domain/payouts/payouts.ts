// Creating, reading, listing and cancelling payouts, and the sandbox's simulations of what the rail and the
// receiving bank do (hold and release, fail, return). Creation validates the payee and an active account in
// the payout's currency, converts the amount to exact minor units and records the payout with its
// payout.created event in one transaction; the engine (payout-engine.ts) takes it from there. A held payout is
// one in `created` with no step due (`next_step_at` null), which the engine never looks at: how a rail holds a
// payout, and how the sandbox's `Sandbox.Hold` keeps one until `simulatePayoutRelease`.
import type { components, operations } from '../../../generated/merchant/schema.js';
import { fromStates } from '../../../generated/merchant/from-states.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { newPayoutReference } from '../../platform/ids/identifiers.js';
import { describeAchReturn } from '../../platform/money/ach-return-codes.js';
import { toMinorUnits } from '../../platform/money/currencies.js';
import { sandboxFailure } from '../rails/sandbox-rail.js';
import type { Environment } from '../../platform/environment.js';
import { requireSandbox } from '../sandbox.js';
import type { Store } from '../../platform/store/database.js';
import type { Database, PayoutState, PayoutTable } from '../../platform/store/schema.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import { metadataMatches, storedMetadata } from '../../platform/store/metadata.js';
import { optionalTimestamp } from '../../platform/store/timestamps.js';
import { recordEvent, transition } from './payout-transitions.js';
import { toPayout, type Payout } from './payout-views.js';
import type { Kysely, Selectable } from 'kysely';
import { cursorPage, textCursorList } from '../../platform/store/cursor.js';

type Schemas = components['schemas'];
type ListQuery = NonNullable<operations['listPayouts']['parameters']['query']>;

// Positioned by reference; cursors issued before store/cursor.ts were the bare reference, still read.
const payoutCursors = textCursorList('payout', /^po_[0-9a-z]{26}$/, { readsBarePositions: true });

export interface PayoutSettings {
  /** Delay before each step of a new payout (SANDBOX_STEP_MS). */
  stepMs: number;
  environment: Environment;
  /** Called after a payout is created or changed outside the engine, so the engine and the dispatcher look at once. */
  onChange?: () => void;
}

export class Payouts {
  constructor(
    private readonly store: Store,
    private readonly settings: PayoutSettings,
  ) {}

  async create(merchantId: number, body: Schemas['PayoutCreateRequest'], idempotencyKey?: string): Promise<StoredResponse<Payout>> {
    const claim = claimOf(`merchant:${merchantId}`, 'createPayout', idempotencyKey, body);
    // Sandbox options would mean nothing on a real rail: refused, not ignored, so code written against the
    // sandbox cannot hold production payouts by mistake.
    if (body.Sandbox !== undefined)
      requireSandbox(this.settings.environment, 'Sandbox options apply only in the sandbox.', bodyField('Sandbox', 'sandbox only'));
    const hold = body.Sandbox?.Hold === true;
    const amountMinor = toMinorUnits(body.Amount, body.Currency, { amount: 'Amount', currency: 'Currency' });
    const result = await idempotent(this.store, claim, {
      current: (first: Payout) => this.get(merchantId, first.PayoutUniqueReference),
      run: async (trx) => {
        // The payee and its accounts in one read: no row when the payee is not the merchant's, one row with no
        // account when it has none (or not the one named).
        const rows = await trx
          .selectFrom('payees as p')
          .leftJoin('payee_accounts as a', (join) => {
            const own = join.onRef('a.payee_id', '=', 'p.id').onRef('a.merchant_id', '=', 'p.merchant_id');
            return body.PayeeAccountId ? own.on('a.id', '=', body.PayeeAccountId) : own;
          })
          .select(['a.id', 'a.active', 'a.currency'])
          .where('p.merchant_id', '=', merchantId)
          .where('p.id', '=', body.PayeeId)
          .orderBy('a.created_at', 'desc')
          .orderBy('a.id', 'desc')
          .execute();
        if (rows.length === 0)
          throw new Problem('not-found', `No payee with id ${body.PayeeId} exists for this merchant.`, {
            errors: [bodyField('PayeeId', 'unknown payee')],
          });
        const candidates = rows.flatMap((a) => (a.id === null ? [] : [{ id: a.id, active: a.active, currency: a.currency }]));
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
            next_step_at: hold ? null : now + this.settings.stepMs,
            return_code: null,
            returned_at: null,
            metadata: storedMetadata(body.metadata),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordEvent(trx, row, 'created', now, []);
        return { status: 202, body: toPayout(row) };
      },
    });
    if (!result.replayed) this.settings.onChange?.();
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
    const from = optionalTimestamp(query.CreatedFrom, { parameter: 'CreatedFrom' });
    const to = optionalTimestamp(query.CreatedTo, { parameter: 'CreatedTo' });
    // A range that ends before it starts contradicts itself: 422, as every contradicting filter (DECISIONS, Errors).
    if (from !== undefined && to !== undefined && to < from)
      throw new Problem('business-rule', 'CreatedTo is before CreatedFrom.', {
        errors: [{ parameter: 'CreatedTo', detail: 'must not be before CreatedFrom' }],
      });
    let q = this.store.db.selectFrom('payouts').selectAll().where('merchant_id', '=', merchantId);
    if (query.PayeeId !== undefined) q = q.where('payee_id', '=', query.PayeeId);
    if (query.Status !== undefined) q = q.where('status', '=', query.Status);
    if (from !== undefined) q = q.where('created_at', '>=', from);
    if (to !== undefined) q = q.where('created_at', '<', to);
    // The contract allows one pair (maxProperties 1).
    for (const [key, value] of Object.entries(query.metadata ?? {}))
      q = q.where(metadataMatches(this.store.dialect, 'payouts', key, value));
    const { page, nextCursor } = await cursorPage(
      payoutCursors,
      query,
      (after, limit) =>
        q
          .$if(after !== undefined, (p) => p.where('reference', '<', after!))
          .orderBy('reference', 'desc')
          .limit(limit)
          .execute(),
      (row) => row.reference,
    );
    return { data: page.map(toPayout), nextCursor };
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
      // The contract's x-from-states: the console offers the cancel in the same state.
      const [cancellable] = fromStates.cancelPayout;
      if (row.status !== cancellable) throw refused();
      const [cancelled] = await transition(trx, [reference], cancellable, 'cancelled', {
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
  /**
   * The sandbox's `simulatePayoutRelease`: a payout held in `created` (`Sandbox.Hold`) is due now, and moves on as
   * any other. One that is not held is a 409 (`conflict`). Not mounted in production (groups/registry.ts).
   */
  async release(merchantId: number, reference: string): Promise<Payout> {
    const released = await this.store.db.transaction().execute(async (trx) => {
      const row = await this.locked(trx, merchantId, reference);
      const [due] = await trx
        .updateTable('payouts')
        .set({ next_step_at: Date.now() })
        .where('reference', '=', reference)
        .where('status', 'in', fromStates.simulatePayoutRelease)
        .where('next_step_at', 'is', null)
        .returningAll()
        .execute();
      if (!due) throw this.notIn(row, 'held in created', 'only a payout created with Sandbox.Hold and not yet released', 'released');
      return toPayout(due);
    });
    this.settings.onChange?.();
    return released;
  }

  /**
   * The sandbox's `simulatePayoutFailure`: a `processing` or `sent` payout fails now with one of the rail's
   * reasons, and `payout.failed` is sent. Any other state is a 409. Not mounted in production.
   */
  async simulateFailure(merchantId: number, reference: string, reason: Parameters<typeof sandboxFailure>[0]): Promise<Payout> {
    return this.simulate(merchantId, reference, fromStates.simulatePayoutFailure, 'failed', { reasons: [sandboxFailure(reason)] });
  }

  /**
   * The sandbox's `simulatePayoutReturn`: a `completed` payout is returned by the receiving bank with an ACH
   * return code, and `payout.returned` is sent. A compare-and-set on `completed`, so a payout is returned once:
   * any other state, `returned` included, is a 409. Not mounted in production.
   */
  async simulateReturn(merchantId: number, reference: string, returnCode: string): Promise<Payout> {
    const reasons = [
      { code: 'returned_by_bank' as const, message: `The receiving bank returned the payout: ${describeAchReturn(returnCode)}.` },
    ];
    return this.simulate(merchantId, reference, fromStates.simulatePayoutReturn, 'returned', { reasons, returnCode });
  }

  /** One transition the sandbox asks for, from one of `from`; the engine may move the payout first, and then it is a 409. */
  private async simulate(
    merchantId: number,
    reference: string,
    from: readonly PayoutState[],
    to: PayoutState,
    options: { reasons: Payout['Reasons']; returnCode?: string },
  ): Promise<Payout> {
    const moved = await this.store.db.transaction().execute(async (trx) => {
      const row = await this.locked(trx, merchantId, reference);
      const [changed] = from.includes(row.status)
        ? await transition(trx, [reference], row.status, to, { ...options, nextStepAt: null })
        : [];
      if (!changed)
        // The state it would enter names what was asked: a payout can be failed, or returned.
        throw this.notIn(await this.locked(trx, merchantId, reference), from.join(' or '), `only a ${from.join(' or ')} payout`, to);
      return toPayout(changed);
    });
    this.settings.onChange?.();
    return moved;
  }

  /** The merchant's payout, locked for the rest of the transaction on PostgreSQL (the engine skips it meanwhile); else not found. */
  private async locked(db: Kysely<Database>, merchantId: number, reference: string): Promise<Selectable<PayoutTable>> {
    const row = await db
      .selectFrom('payouts')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('reference', '=', reference)
      .$if(this.store.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) throw new Problem('not-found', `No payout ${reference} exists for this merchant.`);
    return row;
  }

  /** The 409 of a sandbox step the payout's state refuses: a whole sentence, saying what can be done to which payouts. */
  private notIn(row: Selectable<PayoutTable>, wanted: string, which: string, done: string): Problem {
    const now = row.status === 'created' && row.next_step_at !== null ? 'created and not held' : row.status;
    return new Problem('conflict', `Payout ${row.reference} is ${now}, not ${wanted}; ${which} can be ${done}.`);
  }
}
