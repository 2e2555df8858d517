// The merchants linked to a partner (GET /finance/v1/partner/list).
import type { components } from '../../../generated/partner/schema.js';
import type { Store } from '../../platform/store/database.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';

export async function linkedMerchants(store: Store, partnerId: number): Promise<components['schemas']['MerchantList']> {
  const rows = await store.db
    .selectFrom('partner_merchants')
    .innerJoin('merchants', 'merchants.id', 'partner_merchants.merchant_id')
    .select(['merchants.id as id', 'merchants.name as name', 'partner_merchants.linked_at as linked_at'])
    .where('partner_merchants.partner_id', '=', partnerId)
    .orderBy('merchants.id')
    .execute();
  return {
    message: rows.length === 0 ? ['This partner has no linked merchants.'] : [],
    data: rows.map((r) => ({ merchantId: Number(r.id), name: r.name, status: 'active' as const, linkedOn: isoTimestamp(r.linked_at) })),
  };
}
