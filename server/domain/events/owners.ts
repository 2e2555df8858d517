// Whose an event or a webhook registration is: a merchant's (`partner_id` null) or a partner's (`partner_id` set; a
// partner's payment events and its registrations). Every read of events, registrations and deliveries is scoped
// by its owner, so a merchant never sees a partner's copies and a partner never sees another owner's rows.
import type { ExpressionBuilder } from 'kysely';

export type Owner = { kind: 'merchant'; id: number } | { kind: 'partner'; id: number };

export const merchantOwner = (id: number): Owner => ({ kind: 'merchant', id });
export const partnerOwner = (id: number): Owner => ({ kind: 'partner', id });

/** A partner's test events name no merchant (its registrations have a null `merchant_id`). */
export const noMerchant = 0;

/** The rows of `events` or `webhooks` (by that name or an alias) the owner holds. */
export function ownedBy(owner: Owner, table: 'events' | 'webhooks' | 'e' | 'w' = 'events') {
  return (eb: ExpressionBuilder<any, any>) =>
    owner.kind === 'merchant'
      ? eb.and([eb(`${table}.merchant_id`, '=', owner.id), eb(`${table}.partner_id`, 'is', null)])
      : eb(`${table}.partner_id`, '=', owner.id);
}

/** The owner columns of a webhook registration. */
export const registrationOwner = (owner: Owner) =>
  owner.kind === 'merchant' ? { merchant_id: owner.id, partner_id: null } : { merchant_id: null, partner_id: owner.id };

/**
 * The one number the dispatcher counts delivery slots and takes turns by: a merchant's id, or a partner's id
 * negated (merchant and partner ids are both positive, so they never meet).
 */
export function ownerKey(row: { merchant_id: number | null; partner_id: number | null }): number {
  return row.partner_id === null || row.partner_id === undefined ? Number(row.merchant_id) : -Number(row.partner_id);
}

/** The owner of a dispatcher key (`ownerKey`). */
export const ownerOfKey = (key: number): Owner => (key < 0 ? partnerOwner(-key) : merchantOwner(key));
