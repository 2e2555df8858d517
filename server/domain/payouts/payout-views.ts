// Payout rows as the contract shows them: the payout (`getPayout`, `listPayouts`, every create and change) and the
// body of its `payout.*` events. Amounts are integer minor units inside and decimal strings outside.
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/merchant/schema.js';
import type { EventEnvelope } from '../events/event-rows.js';
import { toDecimalString } from '../../platform/money/currencies.js';
import type { PayoutReason } from '../rails/payout-rail.js';
import { metadataOf } from '../../platform/store/metadata.js';
import type { PayoutState, PayoutTable } from '../../platform/store/schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';

type Schemas = components['schemas'];
export type Payout = Schemas['Payout'];
export type PayoutEventPayload = Schemas['PayoutEvent'];

export function toPayout(row: Selectable<PayoutTable>): Payout {
  return {
    PayoutUniqueReference: row.reference,
    MerchantId: Number(row.merchant_id),
    PayeeId: Number(row.payee_id),
    PayeeAccountId: row.account_id,
    Amount: toDecimalString(Number(row.amount_minor), row.currency),
    Currency: row.currency,
    Description: row.description,
    Status: row.status,
    Reasons: JSON.parse(row.reasons) as PayoutReason[],
    ReturnCode: row.return_code,
    ReturnedOn: row.returned_at === null ? null : isoTimestamp(row.returned_at),
    CreatedOn: isoTimestamp(row.created_at),
    UpdatedOn: isoTimestamp(row.updated_at),
    metadata: metadataOf(row.metadata),
  };
}

/** The body of the event of the state a payout entered (`payout.<state>`). */
export function eventPayload(
  envelope: EventEnvelope<`payout.${PayoutState}`>,
  row: Pick<PayoutTable, 'reference' | 'amount_minor' | 'currency' | 'return_code' | 'metadata'>,
  state: PayoutState,
  at: number,
  reasons: PayoutReason[],
): PayoutEventPayload {
  return {
    ...envelope,
    payout_request_id: row.reference,
    amount: toDecimalString(Number(row.amount_minor), row.currency),
    currency: row.currency,
    metadata: metadataOf(row.metadata),
    timestamp: isoTimestamp(at),
    state,
    ...(reasons.length > 0 ? { reasons } : {}),
    ...(state === 'returned' && row.return_code !== null ? { return_code: row.return_code } : {}),
  };
}
