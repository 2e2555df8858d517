// What a partner may reach: only the merchants linked to it. Another merchant, or another partner's id,
// is answered exactly as a missing one (404), so nothing is revealed about what exists.
import type { Kysely } from 'kysely';
import { Problem, bodyField, type FieldError } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import type { Database } from '../../platform/store/schema.js';

/** The merchants linked to the partner, as a subquery: `.where('merchant_id', 'in', linkedTo(db, partnerId))`. */
export const linkedTo = (db: Kysely<Database>, partnerId: number) =>
  db.selectFrom('partner_merchants').select('partner_merchants.merchant_id').where('partner_merchants.partner_id', '=', partnerId);

export class PartnerScope {
  constructor(private readonly store: Store) {}

  async linkedMerchantIds(partnerId: number): Promise<number[]> {
    const rows = await this.store.db.selectFrom('partner_merchants').select('merchant_id').where('partner_id', '=', partnerId).execute();
    return rows.map((r) => Number(r.merchant_id));
  }

  /** Throws 404 unless the merchant is linked to the partner. */
  async requireLinked(
    partnerId: number,
    merchantId: number,
    field: FieldError = bodyField('merchantId', 'unknown merchant'),
  ): Promise<void> {
    const link = await this.store.db
      .selectFrom('partner_merchants')
      .select('merchant_id')
      .where('partner_id', '=', partnerId)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    if (!link) throw new Problem('not-found', `No merchant ${merchantId} is linked to this partner.`, { errors: [field] });
  }
}

/** A partnerId sent in a body or query may only name the caller. */
export function requireOwnPartnerId(
  sent: number | null | undefined,
  caller: number,
  field: FieldError = bodyField('partnerId', 'unknown partner'),
): void {
  if (sent !== undefined && sent !== null && sent !== caller)
    throw new Problem('not-found', `No partner ${sent} is known to this caller.`, { errors: [field] });
}
