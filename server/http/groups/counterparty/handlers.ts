// Group E, the counterparty and payment-request API: counterparties (payees with ACH or wire details) of
// linked merchants, payment requests (the same operation as group C's) and the payment history search.
import type { OperationId } from '../../../../generated/counterparty/routes.js';
import type { operations } from '../../../../generated/counterparty/schema.js';
import { issueTokenFor } from '../../../domain/auth/token-operations.js';
import type { GroupHandlers } from '../../operation-handler.js';
import type { PartnerContext } from '../../request-context.js';
import { created, ok } from '../../results.js';
import type { Services } from '../../../domain/services.js';
import { partnerHandlers } from '../partner/handlers.js';

export type CounterpartyHandlers = GroupHandlers<operations, OperationId, PartnerContext, 'generateCounterpartyToken'>;

export function counterpartyHandlers(s: Services): CounterpartyHandlers {
  return {
    generateCounterpartyToken: ({ body, context }) => issueTokenFor(s, 'partner', body.clientId, body.clientSecret, context),
    createCounterparty: async ({ body, headers, context }) =>
      created(
        await s.recipients.createCounterparty(context.partnerId, body, headers['idempotency-key']),
        (counterparty) => `/finance/v1/payee/${counterparty.id}`,
      ),
    listCounterparties: async ({ query, context }) => ok(await s.counterparties.list(context.partnerId, query)),
    getCounterparty: async ({ params, context }) => ok(await s.counterparties.get(context.partnerId, params.payeeId)),
    updateCounterparty: async ({ params, body, context }) =>
      ok(await s.payeeUpdates.updateCounterparty(context.partnerId, params.payeeId, body)),
    // The payment request and its read and cancel are group C's operations, served on the same paths.
    createPaymentRequest: partnerHandlers(s).createPaymentRequest,
    getPayment: partnerHandlers(s).getPayment,
    cancelPayment: partnerHandlers(s).cancelPayment,
    simulatePaymentReturn: partnerHandlers(s).simulatePaymentReturn,
    simulatePaymentNotificationOfChange: partnerHandlers(s).simulatePaymentNotificationOfChange,
    // The partner's webhooks and events: group C's operations, served on the same paths.
    ...pick(partnerHandlers(s), [
      'createPartnerWebhook',
      'listPartnerWebhooks',
      'deletePartnerWebhook',
      'getPartnerWebhook',
      'updatePartnerWebhook',
      'rotatePartnerWebhookSecret',
      'testPartnerWebhook',
      'redeliverPartnerWebhookDelivery',
      'listPartnerWebhookDeliveries',
      'listPartnerEvents',
      'getPartnerEvent',
    ]),
    searchTransactions: async ({ body, context }) => ok(await s.payments.search(context.partnerId, body ?? {})),
  };
}

function pick<T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;
}
