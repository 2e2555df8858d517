// Businesses of a merchant: the legal entities that own accounts and counterparties. A business starts
// `active` and `unverified`; its status is changed by the bank outside this API, its verificationStatus by
// its identity verifications (verifications.ts).
import type { components } from '../../../generated/banking/schema.js';
import { Problem, bodyField } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, idempotent, type StoredResponse } from '../../platform/store/idempotency.js';
import { conflictOn } from '../../platform/store/unique-violation.js';
import { findBusiness, pathParam } from './lookups.js';
import { storedMetadata } from '../../platform/store/metadata.js';
import { toBusiness, type Business } from './views.js';

type Schemas = components['schemas'];

/** EINs are written with and without the dash; one business per tax id compares the characters that matter. */
export const taxIdKey = (taxId: string) => taxId.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

const duplicate = (taxId: string) =>
  new Problem('duplicate-business', `This merchant already has a business with tax id ${taxId}.`, {
    errors: [bodyField('taxId', 'already used by another business')],
  });
const taxIdIndex = { name: 'banking_businesses_tax_id', columns: 'banking_businesses.merchant_id, banking_businesses.tax_id_key' };

export class Businesses {
  constructor(private readonly store: Store) {}

  async create(merchantId: number, body: Schemas['BusinessCreateRequest'], idempotencyKey?: string): Promise<StoredResponse<Business>> {
    const today = new Date().toISOString().slice(0, 10);
    if (body.formationDate > today) {
      throw new Problem('business-rule', `The formation date ${body.formationDate} is in the future.`, {
        errors: [bodyField('formationDate', 'must not be in the future')],
      });
    }
    const key = taxIdKey(body.taxId);
    return conflictOn(
      taxIdIndex,
      () => duplicate(body.taxId),
      () =>
        idempotent(this.store, claimOf(`merchant:${merchantId}`, 'createBusiness', idempotencyKey, body), {
          current: (first: Business) => this.get(merchantId, first.id),
          run: async (trx) => {
            const existing = await trx
              .selectFrom('banking_businesses')
              .select('id')
              .where('merchant_id', '=', merchantId)
              .where('tax_id_key', '=', key)
              .executeTakeFirst();
            if (existing) throw duplicate(body.taxId);
            const now = Date.now();
            const row = await trx
              .insertInto('banking_businesses')
              .values({
                merchant_id: merchantId,
                legal_name: body.legalName,
                dba_name: body.dbaName ?? null,
                entity_type: body.entityType,
                tax_id: body.taxId,
                tax_id_key: key,
                formation_date: body.formationDate,
                incorporation_country: body.incorporationCountry,
                incorporation_state: body.incorporationState ?? null,
                address: JSON.stringify(body.address),
                phone: body.phone,
                email: body.email,
                website: body.website ?? null,
                status: 'active',
                verification_status: 'unverified',
                created_at: now,
                updated_at: now,
                metadata: storedMetadata(body.metadata),
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            return { status: 201, body: toBusiness(row) };
          },
        }),
    );
  }

  async get(merchantId: number, id: number): Promise<Business> {
    return toBusiness(await findBusiness(this.store.db, merchantId, id, pathParam('id', 'unknown business')));
  }
}
