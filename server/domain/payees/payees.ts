// Payees of a merchant (groups A and B share them). Every query is scoped to the calling merchant, so
// another merchant's payee is simply not found. The tax id (an SSN for many individuals) is kept whole for
// filters and leaves only as its last 4, like every other identifying number.
import { type Kysely, sql, type Selectable } from 'kysely';
import type { components } from '../../../generated/merchant/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { lastFourOrNull } from '../../platform/personal-data/masking.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import type { Database, PayeeTable } from '../../platform/store/schema.js';
import { compiledQuery } from '../../platform/store/compiled-queries.js';
import { folded, foldedContains } from '../../platform/store/case-folding.js';
import { metadataOf, storedMetadata } from '../../platform/store/metadata.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';

type Schemas = components['schemas'];
export type Payee = Schemas['Payee'];

export function toPayee(row: Selectable<PayeeTable>): Payee {
  return {
    id: Number(row.id),
    payeeType: row.payee_type,
    name: row.name,
    EmailAddress: row.email,
    phoneNumber: row.phone,
    taxId: lastFourOrNull(row.tax_id),
    idType: row.id_type,
    address: { addressLine: row.address_line, state: row.state, city: row.city, country: row.country, postalCode: row.postal_code },
    dateOfBirth: row.date_of_birth,
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
    metadata: metadataOf(row.metadata),
  };
}

const notFound = (id: number) => new Problem('not-found', `No payee with id ${id} exists for this merchant.`);

/** One payee of a merchant, by id: the most frequent read, built and compiled once (store/compiled-queries.ts). */
const payeeRow = compiledQuery((db: Kysely<Database>, v: { merchantId: number; id: number }) =>
  db.selectFrom('payees').selectAll().where('merchant_id', '=', v.merchantId).where('id', '=', v.id),
);

export class Payees {
  constructor(private readonly store: Store) {}

  /** Under the Idempotency-Key, when sent: groups A and B create payees through the one operation createPayee. */
  async create(merchantId: number, body: Schemas['PayeeCreateRequest'], idempotencyKey?: string): Promise<StoredResponse<Payee>> {
    return idempotent(this.store, claimOf(`merchant:${merchantId}`, 'createPayee', idempotencyKey, body), {
      current: (first) => this.get(merchantId, first.id),
      run: async (trx) => {
        const now = Date.now();
        const row = await trx
          .insertInto('payees')
          .values({
            merchant_id: merchantId,
            payee_type: body.payeeType,
            name: body.name,
            email: body.EmailAddress,
            phone: body.phoneNumber ?? null,
            tax_id: body.taxId ?? null,
            id_type: body.idType ?? null,
            address_line: body.address.addressLine,
            state: body.address.state,
            city: body.address.city,
            country: body.address.country,
            postal_code: body.address.postalCode,
            date_of_birth: body.dateOfBirth ?? null,
            created_at: now,
            updated_at: now,
            metadata: storedMetadata(body.metadata),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { status: 201, body: toPayee(row) };
      },
    });
  }

  async row(merchantId: number, id: number): Promise<Selectable<PayeeTable>> {
    const [row] = await payeeRow(this.store.db, { merchantId, id });
    if (!row) throw notFound(id);
    return row;
  }

  async get(merchantId: number, id: number): Promise<Payee> {
    return toPayee(await this.row(merchantId, id));
  }

  /** Changes only the fields sent; the stored result must still satisfy the business rule. */
  async update(merchantId: number, id: number, body: Schemas['PayeeUpdateRequest']): Promise<Payee> {
    const current = await this.row(merchantId, id);
    const next = {
      payee_type: body.payeeType ?? current.payee_type,
      name: body.name ?? current.name,
      email: body.EmailAddress ?? current.email,
      phone: body.phoneNumber !== undefined ? body.phoneNumber : current.phone,
      tax_id: body.taxId !== undefined ? body.taxId : current.tax_id,
      id_type: body.idType !== undefined ? body.idType : current.id_type,
      address_line: body.address.addressLine,
      state: body.address.state,
      city: body.address.city,
      country: body.address.country,
      postal_code: body.address.postalCode,
      date_of_birth: body.dateOfBirth !== undefined ? body.dateOfBirth : current.date_of_birth,
      // Sent metadata replaces the whole map; omitted, it stays.
      metadata: body.metadata !== undefined ? storedMetadata(body.metadata) : current.metadata,
      updated_at: Date.now(),
    };
    if (next.payee_type === 'business') {
      const errors = [
        ...(next.tax_id ? [] : [bodyField('taxId', 'a business payee needs a tax identifier')]),
        ...(next.phone ? [] : [bodyField('phoneNumber', 'a business payee needs a phone number')]),
      ];
      if (errors.length > 0) throw new Problem('business-rule', 'A business payee must keep a taxId and a phoneNumber.', { errors });
    }
    const row = await this.store.db
      .updateTable('payees')
      .set(next)
      .where('merchant_id', '=', merchantId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound(id);
    return toPayee(row);
  }

  async list(merchantId: number, body: Schemas['PayeeListRequest']): Promise<Payee[]> {
    const pageSize = body.pageSize ?? 25;
    const pageNumber = body.pageNumber ?? 1;
    const sortColumn = ({ id: 'id', name: 'name', EmailAddress: 'email', createdOn: 'created_at' } as const)[body.sortProperty ?? 'id'];
    const direction = body.isDescending ? 'desc' : 'asc';
    const foldedColumn = (column: string) => folded(sql.ref(column));
    let query = this.store.db.selectFrom('payees').selectAll().where('merchant_id', '=', merchantId);
    if (body.payeeType) query = query.where('payee_type', '=', body.payeeType);
    if (body.name) query = query.where(foldedContains('name', body.name));
    if (body.EmailAddress) query = query.where(foldedColumn('email'), '=', folded(body.EmailAddress));
    if (body.phoneNumber !== undefined)
      query = body.phoneNumber === null ? query.where('phone', 'is', null) : query.where('phone', '=', body.phoneNumber);
    if (body.taxId !== undefined) query = body.taxId === null ? query.where('tax_id', 'is', null) : query.where('tax_id', '=', body.taxId);
    if (body.idType !== undefined)
      query = body.idType === null ? query.where('id_type', 'is', null) : query.where(foldedColumn('id_type'), '=', folded(body.idType));
    if (body.dateOfBirth !== undefined)
      query = body.dateOfBirth === null ? query.where('date_of_birth', 'is', null) : query.where('date_of_birth', '=', body.dateOfBirth);
    const addressColumns = {
      addressLine: 'address_line',
      state: 'state',
      city: 'city',
      country: 'country',
      postalCode: 'postal_code',
    } as const;
    for (const [field, column] of Object.entries(addressColumns)) {
      const value = body.address?.[field as keyof typeof addressColumns];
      if (value !== undefined) query = query.where(foldedColumn(column), '=', folded(value));
    }
    // Names and emails sort ignoring case, the same on both stores (their default collations differ).
    const sortKey = sortColumn === 'name' || sortColumn === 'email' ? foldedColumn(sortColumn) : sql.ref(sortColumn);
    const rows = await query
      .orderBy(sortKey, direction)
      .orderBy('id', direction)
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize)
      .execute();
    return rows.map(toPayee);
  }
}
