// Recipients (group C) and counterparties (group E): payees of a linked merchant, created by a partner,
// with ACH or wire details. They are payees like any other (group A sees them too), so payment requests
// pay them by payee id. Details are stored whole; account and ID numbers leave only as their last 4.
import { sql, type Selectable } from 'kysely';
import type { components as C } from '../../../generated/partner/schema.js';
import type { components as E } from '../../../generated/counterparty/schema.js';
import type { operations } from '../../../generated/partner/schema.js';
import { findBusiness } from '../banking/lookups.js';
import { abaIsValid } from '../banking/routing-numbers.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { newRailPayeeId } from '../../platform/ids/identifiers.js';
import { lastFour, lastFourOrNull } from '../../platform/personal-data/masking.js';
import { folded, foldedContains } from '../../platform/store/case-folding.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type IdempotencyClaim, type StoredResponse } from '../../platform/store/idempotency.js';
import type { PayeeTable } from '../../platform/store/schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { cutToCodePoints } from '../../platform/text/code-points.js';
import { linkedTo, type PartnerScope, requireOwnPartnerId } from './partner-scope.js';

type CS = C['schemas'];
type ES = E['schemas'];
type Address = CS['RecipientAddress'];
type RecipientQuery = NonNullable<operations['listRecipients']['parameters']['query']>;

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function requireAba(value: string | undefined, field: string): void {
  if (value !== undefined && !abaIsValid(value)) {
    throw new Problem('business-rule', `${value} is not a valid ABA routing number (its check digit does not match).`, {
      errors: [bodyField(field, 'ABA checksum does not match')],
    });
  }
}

export function requireWireBanks(wire: CS['WireDetails'], prefix: string): void {
  if (wire.beneficiaryFIIdType === 'ABA') requireAba(wire.receiverRoutingNumber, `${prefix}.receiverRoutingNumber`);
  if (wire.intermediaryFIIdType === 'ABA') requireAba(wire.intermediaryFIIdNumber, `${prefix}.intermediaryFIIdNumber`);
}

function achRecord(ach: CS['AchDetails']): CS['AchDetailsRecord'] {
  return {
    accountNumber: lastFour(ach.accountNumber),
    bankAccountType: ach.bankAccountType,
    bankName: orNull(ach.bankName),
    routingNumber: ach.routingNumber,
    address: orNull(ach.address),
  };
}

function wireRecord(wire: CS['WireDetails'], method: string): CS['WireDetailsRecord'] {
  return {
    type: wire.type ?? (method === 'DOMESTIC_WIRE' ? 'DOMESTIC' : 'INTERNATIONAL'),
    beneficiaryFIIdType: wire.beneficiaryFIIdType,
    receiverRoutingNumber: wire.receiverRoutingNumber,
    receiverShortName: orNull(wire.receiverShortName),
    beneficiaryFIName: wire.beneficiaryFIName,
    beneficiaryFIAddress: orNull(wire.beneficiaryFIAddress),
    beneficiaryAccountNumber: lastFour(wire.beneficiaryAccountNumber),
    beneficiaryIdNumber: lastFourOrNull(wire.beneficiaryIdNumber),
    address: wire.address,
    intermediaryFIIdType: orNull(wire.intermediaryFIIdType),
    intermediaryFIIdNumber: orNull(wire.intermediaryFIIdNumber),
    intermediaryFIName: orNull(wire.intermediaryFIName),
    intermediaryFIAddress: orNull(wire.intermediaryFIAddress),
  };
}

/** The payee columns every group reads (group A shows recipients as payees too). */
export function payeeColumns(
  merchantId: number,
  fields: {
    name: string;
    email: string;
    phone?: string | null;
    type: 'INDIVIDUAL' | 'BUSINESS';
    address?: Address | null;
    dateOfBirth?: string | null;
    idType?: string | null;
    taxId?: string | null;
  },
) {
  const address = fields.address;
  const now = Date.now();
  return {
    merchant_id: merchantId,
    payee_type: fields.type === 'BUSINESS' ? ('business' as const) : ('individual' as const),
    name: fields.name,
    email: fields.email,
    phone: fields.phone ?? null,
    tax_id: fields.taxId ?? null,
    id_type: fields.idType ?? null,
    // Two lines of up to 200 each become group A's one addressLine, which holds 200.
    address_line: address ? cutToCodePoints([address.line1, address.line2].filter(Boolean).join(', '), 200) : '',
    state: address?.state ?? '',
    city: address?.city ?? '',
    country: address?.countryCode ?? '',
    postal_code: address?.postalCode ?? '',
    date_of_birth: fields.dateOfBirth ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** The account number a payment to this payee pays into (the sandbox rail decides outcomes from it). */
export function payeeAccountNumber(row: Pick<Selectable<PayeeTable>, 'details'>): string | undefined {
  if (!row.details) return undefined;
  const details = JSON.parse(row.details) as { ach?: { accountNumber: string }; wire?: { beneficiaryAccountNumber: string } };
  return details.ach?.accountNumber ?? details.wire?.beneficiaryAccountNumber;
}

export type Recipient = CS['AchRecipient'] | CS['WireRecipient'];

export function toRecipient(row: Selectable<PayeeTable>): Recipient {
  const body = JSON.parse(row.details!) as Omit<CS['AchRecipientRequest'], 'paymentMethodType'> & Pick<CS['WireRecipientRequest'], 'wire'>;
  const common = {
    id: Number(row.id),
    paymentNetworkRailPayeeId: row.rail_payee_id!,
    email: body.email,
    name: body.name,
    phone: orNull(body.phone),
    type: body.type,
    partnerId: Number(row.partner_id),
    merchantId: Number(row.merchant_id),
    createdOn: isoTimestamp(row.created_at),
  };
  if (row.route === 'ACH')
    return {
      ...common,
      paymentMethodType: (row.payment_method_type ?? 'STANDARD') as CS['AchPaymentMethodType'],
      ach: achRecord(body.ach),
    };
  return {
    ...common,
    paymentMethodType: row.payment_method_type as CS['WirePaymentMethodType'],
    wire: wireRecord(body.wire, row.payment_method_type!),
  };
}

export function toCounterparty(row: Selectable<PayeeTable>): ES['Counterparty'] {
  const body = JSON.parse(row.details!) as ES['CounterpartyCreateRequest'];
  const ach = body.ach
    ? {
        ...achRecord(body.ach as unknown as CS['AchDetails']),
        gatewayRoutingNumber: orNull(body.ach.gatewayRoutingNumber),
        rdfiNumberQualifier: orNull(body.ach.rdfiNumberQualifier),
      }
    : null;
  return {
    id: Number(row.id),
    merchantId: Number(row.merchant_id),
    name: body.name,
    phone: orNull(body.phone),
    email: body.email,
    businessId: orNull(body.businessId),
    PaymentMethodType: body.PaymentMethodType,
    type: body.type,
    productId: orNull(body.productId),
    dateOfBirth: orNull(body.dateOfBirth),
    idNumber: lastFourOrNull(body.idNumber),
    idType: orNull(body.idType),
    dbaName: orNull(body.dbaName),
    jurisdictionState: orNull(body.jurisdictionState),
    jurisdictionCountry: orNull(body.jurisdictionCountry),
    individualId: orNull(body.individualId),
    ach,
    wire: body.wire ? wireRecord(body.wire as CS['WireDetails'], body.PaymentMethodType) : null,
    createdOn: isoTimestamp(row.created_at),
  };
}

export class Recipients {
  constructor(
    private readonly store: Store,
    private readonly scope: PartnerScope,
  ) {}

  /** Writes the payee under the Idempotency-Key, when sent (the request it names is the body). */
  private async insert<T>(
    claim: IdempotencyClaim | undefined,
    values: Parameters<typeof payeeColumns>[1] & {
      merchantId: number;
      partnerId: number;
      kind: 'recipient' | 'counterparty';
      method: string;
      route: 'ACH' | 'WIRE';
      details: unknown;
    },
    answer: (row: Selectable<PayeeTable>) => T & { id: number },
  ): Promise<StoredResponse<T>> {
    // A replay reads the payee as the partner's reads would now: not found once its merchant is no longer linked.
    const current = async (first: T & { id: number }) => {
      const row = await this.store.db
        .selectFrom('payees')
        .selectAll()
        .where('id', '=', first.id)
        .where('kind', '=', values.kind)
        .where('merchant_id', 'in', linkedTo(this.store.db, values.partnerId))
        .executeTakeFirst();
      if (!row) throw new Problem('not-found', `No ${values.kind} ${first.id} exists for the merchants linked to this partner.`);
      return answer(row);
    };
    return idempotent<T & { id: number }>(this.store, claim, {
      current,
      run: async (trx) => {
        const row = await trx
          .insertInto('payees')
          .values({
            ...payeeColumns(values.merchantId, values),
            kind: values.kind,
            partner_id: values.partnerId,
            rail_payee_id: newRailPayeeId(),
            payment_method_type: values.method,
            route: values.route,
            details: JSON.stringify(values.details),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { status: 201, body: answer(row) };
      },
    });
  }

  async createAch(
    partnerId: number,
    body: CS['AchRecipientRequest'],
    idempotencyKey?: string,
  ): Promise<StoredResponse<CS['AchRecipient']>> {
    requireOwnPartnerId(body.partnerId, partnerId);
    await this.scope.requireLinked(partnerId, body.merchantId);
    requireAba(body.ach.routingNumber, 'ach.routingNumber');
    const method = body.paymentMethodType ?? 'STANDARD';
    const claim = claimOf(`partner:${partnerId}`, 'createAchRecipient', idempotencyKey, body);
    return this.insert(
      claim,
      {
        ...body,
        address: body.ach.address,
        merchantId: body.merchantId,
        partnerId,
        kind: 'recipient',
        method,
        route: 'ACH',
        details: { ...body, paymentMethodType: method },
      },
      (row) => toRecipient(row) as CS['AchRecipient'],
    );
  }

  async createWire(
    partnerId: number,
    body: CS['WireRecipientRequest'],
    idempotencyKey?: string,
  ): Promise<StoredResponse<CS['WireRecipient']>> {
    requireOwnPartnerId(body.partnerId, partnerId);
    await this.scope.requireLinked(partnerId, body.merchantId);
    requireWireBanks(body.wire, 'wire');
    const claim = claimOf(`partner:${partnerId}`, 'createWireRecipient', idempotencyKey, body);
    return this.insert(
      claim,
      {
        ...body,
        address: body.wire.address,
        merchantId: body.merchantId,
        partnerId,
        kind: 'recipient',
        method: body.paymentMethodType,
        route: 'WIRE',
        details: body,
      },
      (row) => toRecipient(row) as CS['WireRecipient'],
    );
  }

  async createCounterparty(
    partnerId: number,
    body: ES['CounterpartyCreateRequest'],
    idempotencyKey?: string,
  ): Promise<StoredResponse<ES['Counterparty']>> {
    await this.scope.requireLinked(partnerId, body.merchantId);
    // The business the counterparty is must be one of its merchant's (group D); any other is not found.
    if (body.businessId != null) {
      await findBusiness(this.store.db, body.merchantId, body.businessId, bodyField('businessId', 'unknown business'));
    }
    const wireMethod = body.PaymentMethodType === 'DOMESTIC_WIRE' || body.PaymentMethodType === 'INTERNATIONAL_WIRE';
    if (wireMethod ? !body.wire : !body.ach) {
      const field = wireMethod ? 'wire' : 'ach';
      throw new Problem('business-rule', `PaymentMethodType ${body.PaymentMethodType} needs ${field} details.`, {
        errors: [bodyField(field, `required for ${body.PaymentMethodType}`)],
      });
    }
    if (body.ach && !body.ach.rdfiNumberQualifier) requireAba(body.ach.routingNumber, 'ach.routingNumber');
    if (body.ach?.gatewayRoutingNumber) requireAba(body.ach.gatewayRoutingNumber, 'ach.gatewayRoutingNumber');
    if (body.wire) requireWireBanks(body.wire as CS['WireDetails'], 'wire');
    const claim = claimOf(`partner:${partnerId}`, 'createCounterparty', idempotencyKey, body);
    return this.insert(
      claim,
      {
        name: body.name,
        email: body.email,
        phone: body.phone,
        type: body.type,
        address: body.ach?.address ?? body.wire?.address,
        dateOfBirth: body.dateOfBirth,
        idType: body.idType,
        taxId: body.type === 'BUSINESS' ? body.idNumber : null,
        merchantId: body.merchantId,
        partnerId,
        kind: 'counterparty',
        method: body.PaymentMethodType,
        route: wireMethod ? 'WIRE' : 'ACH',
        details: body,
      },
      toCounterparty,
    );
  }

  async list(partnerId: number, query: RecipientQuery): Promise<CS['RecipientPage']> {
    requireOwnPartnerId(query.PartnerId, partnerId, { parameter: 'PartnerId', detail: 'unknown partner' });
    let merchants: number[];
    if (query.MerchantId !== undefined) {
      await this.scope.requireLinked(partnerId, query.MerchantId, { parameter: 'MerchantId', detail: 'unknown merchant' });
      merchants = [query.MerchantId];
    } else merchants = await this.scope.linkedMerchantIds(partnerId);
    const pageSize = query.PageSize ?? 25;
    const pageNumber = query.PageNumber ?? 1;
    if (merchants.length === 0)
      return { message: ['This partner has no linked merchants.'], data: [], pageNumber, pageSize, totalCount: 0 };
    let q = this.store.db.selectFrom('payees').where('kind', '=', 'recipient').where('merchant_id', 'in', merchants);
    if (query.PayeeType) q = q.where('payee_type', '=', query.PayeeType === 'BUSINESS' ? 'business' : 'individual');
    if (query.PaymentNetworkRailPayeeId) q = q.where('rail_payee_id', '=', query.PaymentNetworkRailPayeeId);
    if (query.PayeePaymentMethodType) q = q.where('payment_method_type', '=', query.PayeePaymentMethodType);
    if (query.Route) q = q.where('route', '=', query.Route);
    if (query.SearchText) {
      const text = query.SearchText;
      q = q.where((eb) => eb.or([foldedContains('name', text), foldedContains('email', text)]));
    }
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const sortColumn = (
      {
        id: 'id',
        name: 'name',
        email: 'email',
        type: 'payee_type',
        paymentMethodType: 'payment_method_type',
        createdOn: 'created_at',
      } as const
    )[query.SortProperty ?? 'id'];
    const direction = query.IsDescending ? 'desc' : 'asc';
    const sortKey = sortColumn === 'name' || sortColumn === 'email' ? folded(sql.ref(sortColumn)) : sql.ref(sortColumn);
    const rows = await q
      .selectAll()
      .orderBy(sortKey, direction)
      .orderBy('id', direction)
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize)
      .execute();
    return { message: [], data: rows.map(toRecipient), pageNumber, pageSize, totalCount: Number(count) };
  }
}
