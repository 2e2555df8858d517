// Payment requests (POST /finance/v1/payment_request, shared by groups C and E), their cancel and the sandbox's
// simulations, and the two transaction searches. A payment pays a recipient or counterparty of a linked merchant,
// over the rail its details allow, in exact minor units. Its idempotency keys, per partner, are
// `partnerPaymentUniqueId` (kept for ever) and the Idempotency-Key header of every create, both through the one
// mechanism (store/idempotency.ts). Every change of state goes through payment-transitions.ts; rows leave as
// payment-views.ts shows them.
import { sql, type ExpressionBuilder, type Kysely, type Transaction as KyselyTransaction, type Selectable } from 'kysely';
import { AchPaymentMethodType } from '../../../generated/partner/enums.js';
import type { components as C } from '../../../generated/partner/schema.js';
import type { components as E } from '../../../generated/counterparty/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import type { RequestContext } from '../auth/principal.js';
import { currencyExponents, toMinorUnits } from '../../platform/money/currencies.js';
import type { Environment } from '../../platform/environment.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, requestHash } from '../../platform/store/idempotency.js';
import { storedMetadata } from '../../platform/store/metadata.js';
import type { Database, PaymentTable } from '../../platform/store/schema.js';
import { optionalTimestamp } from '../../platform/store/timestamps.js';
import { linkedTo, type PartnerScope, requireOwnPartnerId } from './partner-scope.js';
import { recordPaymentNoc } from './payment-events.js';
import { recordPaymentCreated, transitionPayment } from './payment-transitions.js';
import { type Payment, type Transaction, toPayment, toTransaction } from './payment-views.js';
import { payeeAccountNumber } from './recipients.js';

type CS = C['schemas'];
type ES = E['schemas'];
type PaymentRow = Selectable<PaymentTable>;

/**
 * The search's `accountNumber`: the full number, or its last 4 characters (what every response shows). The
 * suffix is compared in SQL (`substr` and `length` mean the same on both stores).
 */
function accountNumberMatches(eb: ExpressionBuilder<Database, 'payments'>, sent: string) {
  const whole = eb('account_number', '=', sent);
  if (sent.length !== 4) return whole;
  return eb.or([whole, eb(sql<string>`substr(account_number, length(account_number) - 3)`, '=', sent)]);
}
/** The payment method types sent by ACH (`AchPaymentMethodType`); every other is a wire. */
const achMethods: ReadonlySet<string> = new Set(AchPaymentMethodType);

export class Payments {
  constructor(
    private readonly store: Store,
    private readonly scope: PartnerScope,
    private readonly settings: {
      stepMs: number;
      environment: Environment;
      /** Called after a payment is created or changed outside the engine, so the engine and the dispatcher look at once. */
      onChange?: () => void;
    },
  ) {}

  /**
   * 201 with a new payment. A repeated partnerPaymentUniqueId answers 200 with the original in its current state;
   * a repeated Idempotency-Key, the stored 201. A request with both must match what each was first used with;
   * the unique id, kept for ever, answers first (DECISIONS: "Payment request: two keys").
   */
  async create(
    partnerId: number,
    body: CS['PaymentRequest'],
    context: RequestContext,
    idempotencyKey?: string,
  ): Promise<{ status: 200 | 201; body: Payment; replayed: boolean }> {
    requireOwnPartnerId(body.partnerId, partnerId);
    await this.scope.requireLinked(partnerId, body.merchantId);
    // partnerPaymentUniqueId is the payment's idempotency key, the partner's own and kept for ever (DECISIONS).
    const unique = body.partnerPaymentUniqueId;
    const byUniqueId = claimOf(`partner:${partnerId}`, 'partnerPaymentUniqueId', unique, body, {
      lifetimeMs: null,
      conflict: () => {
        const detail = `partnerPaymentUniqueId ${unique} was first used with a different payment request.`;
        const errors = [bodyField('partnerPaymentUniqueId', 'already used with a different request')];
        return new Problem('idempotency-conflict', detail, { errors });
      },
    });
    const byKey = claimOf(`partner:${partnerId}`, 'createPaymentRequest', idempotencyKey, body);
    const result = await idempotent(this.store, [byUniqueId, byKey], {
      run: (trx) => this.insert(trx, partnerId, body, context),
      current: (first: Payment) => this.get(partnerId, first.paymentId),
    });
    if (!result.replayed) this.settings.onChange?.();
    // Either replay shows the payment as it is now; a repeated unique id answers 200, as its contract says.
    const status = result.replayed && result.replayOf === byUniqueId ? 200 : (result.status as 201);
    return { status, body: result.body, replayed: result.replayed };
  }

  /** Checks the request against the payee's details and writes the payment with its first state. */
  private async insert(trx: KyselyTransaction<Database>, partnerId: number, body: CS['PaymentRequest'], context: RequestContext) {
    const method = body.paymentMethodType === 'INTERNATIONAL_WIR' ? 'INTERNATIONAL_WIRE' : body.paymentMethodType;
    const route = achMethods.has(method) ? 'ACH' : 'WIRE';
    if ((route === 'ACH' || method === 'DOMESTIC_WIRE') && body.currency !== 'USD') {
      throw new Problem('business-rule', `${method} payments settle in USD only.`, {
        errors: [bodyField('currency', 'must be USD for this payment method')],
      });
    }
    const amountMinor = toMinorUnits(body.amount, body.currency, { amount: 'amount', currency: 'currency' });
    const payees = trx.selectFrom('payees').selectAll();
    const payee = await payees.where('id', '=', body.payeeId).where('merchant_id', '=', body.merchantId).executeTakeFirst();
    if (!payee)
      throw new Problem('not-found', `Merchant ${body.merchantId} has no payee ${body.payeeId}.`, {
        errors: [bodyField('payeeId', 'unknown payee')],
      });
    const accountNumber = payeeAccountNumber(payee);
    if (payee.route !== route || !accountNumber) {
      throw new Problem('business-rule', `Payee ${body.payeeId} has no ${route === 'ACH' ? 'ACH' : 'wire'} details for ${method}.`, {
        errors: [bodyField('paymentMethodType', `payee ${body.payeeId} cannot be paid by ${method}`)],
      });
    }
    const details = payee.details ? (JSON.parse(payee.details) as { productId?: number }) : {};
    const now = Date.now();
    const row = await trx
      .insertInto('payments')
      .values({
        merchant_id: body.merchantId,
        partner_id: partnerId,
        payee_id: body.payeeId,
        environment: this.settings.environment,
        merchant_account_number: body.merchantAccountNumber ?? null,
        account_number: accountNumber,
        amount_minor: amountMinor,
        currency: body.currency,
        payment_method_type: method,
        route,
        description: body.description,
        external_id: body.externalId ?? null,
        internal_note: body.internalNote ?? null,
        partner_payment_unique_id: body.partnerPaymentUniqueId ?? null,
        request_hash: requestHash(body),
        status: 'created',
        processing_status: 'created',
        recon_status: 'UNRECONCILED',
        direction: 'OUTBOUND',
        product_id: details.productId ?? null,
        requester_ip: context.ip.replace(/^::ffff:/, ''),
        requester_username: context.principal?.clientId ?? null,
        post_date: null,
        next_step_at: now + this.settings.stepMs,
        created_at: now,
        updated_at: now,
        metadata: storedMetadata(body.metadata),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordPaymentCreated(trx, row, now);
    return { status: 201 as const, body: toPayment(row) };
  }

  /** One payment the partner requested, for a merchant linked to it; any other is not found. */
  async get(partnerId: number, paymentId: number): Promise<Payment> {
    return toPayment(await this.linkedPayment(this.store.db, partnerId, paymentId));
  }

  /** Cancels a payment still in `created`; a cancelled one is returned as is; any other state is a 409. */
  async cancel(partnerId: number, paymentId: number): Promise<Payment> {
    const { row, cancelled } = await this.store.db.transaction().execute(async (trx) => {
      const row = await this.linkedPayment(trx, partnerId, paymentId);
      if (row.status === 'cancelled') return { row };
      // The engine may start processing between the read and the update: the compare-and-set decides.
      const cancelled = row.status === 'created' ? await transitionPayment(trx, row, 'cancelled', { now: Date.now() }) : undefined;
      if (cancelled) return { row: cancelled, cancelled };
      const now = await trx.selectFrom('payments').select('status').where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
      throw new Problem(
        'payment-not-cancellable',
        `Payment ${paymentId} is ${now.status}; only a payment that has not started processing can be cancelled.`,
      );
    });
    if (cancelled) this.settings.onChange?.();
    return toPayment(row);
  }

  /**
   * The sandbox's `simulatePaymentReturn`: a completed payment returned by the receiving bank with an R code. A
   * compare-and-set on `completed`; any other state is a 409. Not mounted in production (groups/registry.ts).
   */
  async simulateReturn(partnerId: number, paymentId: number, returnCode: string): Promise<Payment> {
    const returned = await this.store.db.transaction().execute(async (trx) => {
      const row = await this.linkedPayment(trx, partnerId, paymentId);
      const returned =
        row.status === 'completed' ? await transitionPayment(trx, row, 'returned', { now: Date.now(), returnCode }) : undefined;
      if (!returned) throw new Problem('conflict', `Payment ${paymentId} is ${row.status}; only a completed payment is returned.`);
      return returned;
    });
    this.settings.onChange?.();
    return toPayment(returned);
  }

  /**
   * The sandbox's `simulatePaymentNotificationOfChange`: the payee's bank corrects an ACH payment's account details.
   * Moves no money; the payment shows it, and `noc.received` goes to its merchant. Not mounted in production.
   */
  async simulateNotificationOfChange(
    partnerId: number,
    paymentId: number,
    body: CS['PaymentNotificationOfChangeSimulationRequest'],
  ): Promise<Payment> {
    const changed = await this.store.db.transaction().execute(async (trx) => {
      const row = await this.linkedPayment(trx, partnerId, paymentId);
      if (row.route !== 'ACH' || !['processing', 'sent', 'completed', 'returned'].includes(row.status))
        throw new Problem(
          'conflict',
          `Payment ${paymentId} is a ${row.status} ${row.route} payment; only an ACH entry sent to the network gets a notification of change.`,
        );
      const now = Date.now();
      const changed = await trx
        .updateTable('payments')
        .set({ change_code: body.changeCode, corrected_data: JSON.stringify(body.correctedData), noc_received_at: now })
        .where('payment_id', '=', paymentId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordPaymentNoc(trx, changed, now);
      return changed;
    });
    this.settings.onChange?.();
    return toPayment(changed);
  }

  /** The partner's own payment (it requested it, for a merchant still linked to it); any other is not found, a
   * payment another partner requested for the same merchant included. */
  private async linkedPayment(db: Kysely<Database>, partnerId: number, paymentId: number): Promise<PaymentRow> {
    const row = await db
      .selectFrom('payments')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .where((eb) => ownPayments(eb, partnerId, linkedTo(db, partnerId)))
      .executeTakeFirst();
    if (!row) throw new Problem('not-found', `No payment ${paymentId} exists among the payments this partner requested.`);
    return row;
  }

  private async page(
    where: (eb: ExpressionBuilder<Database, 'payments'>) => ReturnType<ExpressionBuilder<Database, 'payments'>['and']>,
    paging: { pageNumber: number; pageSize: number },
    order: { column: 'payment_id' | 'created_at' | 'updated_at' | 'post_date' | 'amount_minor'; descending: boolean },
  ): Promise<{ data: Transaction[]; pageNumber: number; pageSize: number; totalCount: number; message: string[] }> {
    const { count } = await this.store.db
      .selectFrom('payments')
      .where(where)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const direction = order.descending ? 'desc' : 'asc';
    const rows: PaymentRow[] = await this.store.db
      .selectFrom('payments')
      .selectAll()
      .where(where)
      .orderBy(order.column, direction)
      .orderBy('payment_id', direction)
      .limit(paging.pageSize)
      .offset((paging.pageNumber - 1) * paging.pageSize)
      .execute();
    const ids = rows.map((r) => r.payment_id);
    const changes =
      ids.length === 0
        ? []
        : await this.store.db.selectFrom('payment_status_changes').selectAll().where('payment_id', 'in', ids).orderBy('at').execute();
    const data = rows.map((r) =>
      toTransaction(
        r,
        changes.filter((c) => Number(c.payment_id) === Number(r.payment_id)),
      ),
    );
    return { message: [], data, pageNumber: paging.pageNumber, pageSize: paging.pageSize, totalCount: Number(count) };
  }

  /** Group C: the payments the partner requested, of its linked merchants. */
  async searchForPartner(partnerId: number, body: CS['PartnerTransactionSearchRequest']): Promise<CS['TransactionPage']> {
    requireOwnPartnerId(body.partnerId, partnerId);
    if (body.merchantId !== undefined) await this.scope.requireLinked(partnerId, body.merchantId);
    const merchants = body.merchantId !== undefined ? [body.merchantId] : await this.scope.linkedMerchantIds(partnerId);
    const paging = { pageNumber: body.pageNumber ?? 1, pageSize: body.pageSize ?? 25 };
    if (merchants.length === 0) return { message: ['This partner has no linked merchants.'], data: [], ...paging, totalCount: 0 };
    const column = (
      { paymentId: 'payment_id', createdOn: 'created_at', updatedOn: 'updated_at', postDate: 'post_date', amount: 'amount_minor' } as const
    )[body.sortProperty ?? 'paymentId'];
    return this.page(
      (eb) =>
        eb.and([
          ownPayments(eb, partnerId, merchants),
          ...(body.route ? [eb('route', '=', body.route)] : []),
          ...(body.paymentId !== undefined ? [eb('payment_id', '=', body.paymentId)] : []),
        ]),
      paging,
      { column, descending: body.isDescending ?? false },
    );
  }

  /** Group E: the payment history the partner requested, by every filter of the seed, newest first. */
  async search(partnerId: number, body: ES['TransactionSearchRequest']): Promise<ES['TransactionPage']> {
    const field = (name: string, detail: string) => [bodyField(name, detail)];
    // Each date-time read once, here: a field that cannot be read is named before any range is compared.
    const time = (name: keyof ES['TransactionSearchRequest'] & string) =>
      optionalTimestamp(body[name] as string | undefined, { pointer: `#/${name}` });
    const [beginDate, endDate, postDateStart, postDateEnd, updatedStart, updatedEnd] = (
      ['beginDate', 'endDate', 'postDateStart', 'postDateEnd', 'updatedStart', 'updatedEnd'] as const
    ).map(time);
    const ranges: [number | undefined, number | undefined, string][] = [
      [beginDate, endDate, 'endDate'],
      [postDateStart, postDateEnd, 'postDateEnd'],
      [updatedStart, updatedEnd, 'updatedEnd'],
    ];
    for (const [from, to, name] of ranges) {
      if (from !== undefined && to !== undefined && from > to)
        throw new Problem('business-rule', `${name} is before the start of its range.`, {
          errors: field(name, 'before the start of the range'),
        });
    }
    if (body.minAmount !== undefined && body.maxAmount !== undefined && body.minAmount > body.maxAmount)
      throw new Problem('business-rule', 'minAmount is above maxAmount.', { errors: field('minAmount', 'above maxAmount') });
    if (body.excludeAch && body.excludeWire)
      throw new Problem('business-rule', 'excludeAch and excludeWire together leave nothing to find.', {
        errors: field('excludeWire', 'excludes every rail together with excludeAch'),
      });
    if (body.isInbound !== undefined && body.direction !== undefined && body.isInbound !== (body.direction === 'INBOUND')) {
      throw new Problem('business-rule', 'isInbound contradicts direction.', { errors: field('isInbound', 'contradicts direction') });
    }
    if (body.customerId !== undefined)
      await this.scope.requireLinked(partnerId, body.customerId, bodyField('customerId', 'unknown customer'));
    const merchants = body.customerId !== undefined ? [body.customerId] : await this.scope.linkedMerchantIds(partnerId);
    const paging = { pageNumber: body.pageNumber ?? 1, pageSize: body.pageSize ?? 25 };
    if (merchants.length === 0) return { message: ['This partner has no linked merchants.'], data: [], ...paging, totalCount: 0 };
    // Amounts compare in each transaction's own currency: one bound per currency exponent.
    const byExponent = new Map<number, string[]>();
    for (const [code, exponent] of Object.entries(currencyExponents)) byExponent.set(exponent, [...(byExponent.get(exponent) ?? []), code]);
    return this.page(
      (eb) => {
        const amountBound = (amount: number, op: '>=' | '<=') =>
          eb.or(
            [...byExponent].map(([exponent, codes]) =>
              eb.and([
                eb('currency', 'in', codes),
                eb(
                  'amount_minor',
                  op,
                  op === '>=' ? Math.ceil(amount * 10 ** exponent - 1e-9) : Math.floor(amount * 10 ** exponent + 1e-9),
                ),
              ]),
            ),
          );
        // Fields API-created payments never carry (files, batches, links, inbound, NOC records) match nothing when asked for.
        const never =
          [body.batchId, body.linkedPaymentId, body.originalFileName, body.settlementFileName, body.wireFileHandle].some(
            (v) => v !== undefined,
          ) ||
          body.loadedFromFile === 'true' ||
          body.direction === 'INBOUND' ||
          body.isInbound === true;
        return eb.and([
          ownPayments(eb, partnerId, merchants),
          ...(never ? [eb('payment_id', '<', 0)] : []),
          ...(body.accountNumber ? [accountNumberMatches(eb, body.accountNumber)] : []),
          ...(body.externalId ? [eb('external_id', '=', body.externalId)] : []),
          ...(body.paymentId ? [eb('payment_id', '=', Number(body.paymentId))] : []),
          ...(body.requesterIpAddress ? [eb('requester_ip', '=', body.requesterIpAddress)] : []),
          ...(body.requesterUsername ? [eb('requester_username', '=', body.requesterUsername)] : []),
          ...(beginDate !== undefined ? [eb('created_at', '>=', beginDate)] : []),
          ...(endDate !== undefined ? [eb('created_at', '<=', endDate)] : []),
          ...(postDateStart !== undefined ? [eb('post_date', '>=', postDateStart)] : []),
          ...(postDateEnd !== undefined ? [eb('post_date', '<=', postDateEnd)] : []),
          ...(updatedStart !== undefined ? [eb('updated_at', '>=', updatedStart)] : []),
          ...(updatedEnd !== undefined ? [eb('updated_at', '<=', updatedEnd)] : []),
          ...(body.counterpartyId !== undefined ? [eb('payee_id', '=', body.counterpartyId)] : []),
          ...(body.productId !== undefined ? [eb('product_id', '=', body.productId)] : []),
          ...(body.excludeAch ? [eb('route', '!=', 'ACH')] : []),
          ...(body.excludeWire ? [eb('route', '!=', 'WIRE')] : []),
          ...(body.minAmount !== undefined ? [amountBound(body.minAmount, '>=')] : []),
          ...(body.maxAmount !== undefined ? [amountBound(body.maxAmount, '<=')] : []),
          ...(body.processingStatus?.length ? [eb('processing_status', 'in', body.processingStatus)] : []),
          ...(body.reconStatuses?.length ? [eb('recon_status', 'in', body.reconStatuses)] : []),
          ...(body.transactionStatus?.length ? [eb('status', 'in', body.transactionStatus)] : []),
          ...(body.transactionType?.length ? [eb('route', 'in', body.transactionType)] : []),
        ]);
      },
      paging,
      { column: 'created_at', descending: true },
    );
  }
}

/** What a partner sees of payments: those it requested, for the merchants given (those linked to it). A payment
 * belongs to the partner that requested it: another partner linked to the same merchant finds it nowhere (two
 * platforms serving one merchant are often competitors). */
function ownPayments(eb: ExpressionBuilder<Database, 'payments'>, partnerId: number, merchants: number[] | ReturnType<typeof linkedTo>) {
  return eb.and([eb('partner_id', '=', partnerId), eb('merchant_id', 'in', merchants)]);
}
