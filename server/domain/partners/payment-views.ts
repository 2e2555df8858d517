// Payment rows as the contract shows them: the payment (`getPayment`, the create and the cancel, and the body of
// every `payment.*` and `noc.received` event of a payment) and the transaction of the two searches, with its status
// history. Account numbers leave only as their last 4 characters; amounts are integer minor units inside and decimal
// strings outside.
import type { Selectable } from 'kysely';
import type { components as C } from '../../../generated/partner/schema.js';
import { toDecimalString } from '../../platform/money/currencies.js';
import { notificationOfChangeOf } from '../../platform/money/notification-of-change.js';
import { lastFour, lastFourOrNull } from '../../platform/personal-data/masking.js';
import { metadataOf } from '../../platform/store/metadata.js';
import type { PaymentTable } from '../../platform/store/schema.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';

type CS = C['schemas'];
export type Payment = CS['Payment'];
export type Transaction = CS['Transaction'];

export function toPayment(row: Selectable<PaymentTable>): Payment {
  return {
    paymentId: Number(row.payment_id),
    payeeId: Number(row.payee_id),
    merchantAccountNumber: lastFourOrNull(row.merchant_account_number),
    amount: toDecimalString(Number(row.amount_minor), row.currency),
    currency: row.currency,
    paymentMethodType: row.payment_method_type,
    description: row.description,
    externalId: row.external_id,
    internalNote: row.internal_note,
    partnerId: Number(row.partner_id),
    merchantId: Number(row.merchant_id),
    partnerPaymentUniqueId: row.partner_payment_unique_id,
    status: row.status,
    route: row.route,
    returnCode: row.return_code,
    returnedOn: row.returned_at === null ? null : isoTimestamp(row.returned_at),
    notificationOfChange: notificationOfChangeOf<CS['PaymentNotificationOfChange']['correctedData']>(row),
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
    metadata: metadataOf(row.metadata),
  } as Payment;
}

export function toTransaction(
  row: Selectable<PaymentTable>,
  history: { status: Transaction['transactionStatus']; at: number }[],
): Transaction {
  return {
    paymentId: Number(row.payment_id),
    externalId: row.external_id,
    partnerPaymentUniqueId: row.partner_payment_unique_id,
    partnerId: row.partner_id === null ? null : Number(row.partner_id),
    merchantId: Number(row.merchant_id),
    payeeId: Number(row.payee_id),
    productId: row.product_id === null ? null : Number(row.product_id),
    amount: toDecimalString(Number(row.amount_minor), row.currency),
    currency: row.currency,
    direction: row.direction,
    transactionType: row.route,
    paymentMethodType: row.payment_method_type,
    transactionStatus: row.status,
    processingStatus: row.processing_status,
    reconStatus: row.recon_status,
    accountNumber: lastFour(row.account_number),
    description: row.description,
    batchId: null,
    linkedPaymentId: null,
    isAchNoc: false,
    loadedFromFile: false,
    originalFileName: null,
    settlementFileName: null,
    wireFileHandle: null,
    requesterIpAddress: row.requester_ip,
    requesterUsername: row.requester_username,
    postDate: row.post_date === null ? null : isoTimestamp(row.post_date),
    returnCode: row.return_code,
    returnedOn: row.returned_at === null ? null : isoTimestamp(row.returned_at),
    notificationOfChange: notificationOfChangeOf<CS['PaymentNotificationOfChange']['correctedData']>(row),
    createdOn: isoTimestamp(row.created_at),
    updatedOn: isoTimestamp(row.updated_at),
    statusHistory: history.map((h) => ({ status: h.status, at: isoTimestamp(h.at) })),
    metadata: metadataOf(row.metadata),
  } as Transaction;
}
