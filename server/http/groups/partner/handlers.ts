// Group C, the partner API: a partner acts for the merchants linked to it. One handler per operation of
// generated/partner/routes.ts; POST /finance/v1/payment_request is the same operation as group E's.
import type { OperationId } from '../../../../generated/partner/routes.js';
import type { components, operations } from '../../../../generated/partner/schema.js';
import { issueTokenFor } from '../../../domain/auth/token-operations.js';
import type { GroupHandlers } from '../../operation-handler.js';
import type { PartnerContext } from '../../request-context.js';
import { created, noContent, ok } from '../../results.js';
import { linkedMerchants } from '../../../domain/partners/merchant-links.js';
import { requireOwnPartnerId } from '../../../domain/partners/partner-scope.js';
import type { Services } from '../../../domain/services.js';
import { partnerOwner } from '../../../domain/events/owners.js';

export type PartnerHandlers = GroupHandlers<operations, OperationId, PartnerContext, 'generatePartnerToken'>;
type PartnerEvent = components['schemas']['PartnerEvent'];

/** Where a created recipient is read: listed by its payment network rail id. */
const recipientLocation = (recipient: { paymentNetworkRailPayeeId: string }) =>
  `/finance/v1/payees?PaymentNetworkRailPayeeId=${recipient.paymentNetworkRailPayeeId}`;

export function partnerHandlers(s: Services): PartnerHandlers {
  return {
    generatePartnerToken: ({ body, context }) => issueTokenFor(s, 'partner', body.clientId, body.clientSecret, context),
    listPartnerMerchants: async ({ query, context }) => {
      requireOwnPartnerId(query.partnerId, context.partnerId, { parameter: 'partnerId', detail: 'unknown partner' });
      return ok(await linkedMerchants(s.store, context.partnerId));
    },
    createAchRecipient: async ({ body, headers, context }) =>
      created(await s.recipients.createAch(context.partnerId, body, headers['idempotency-key']), recipientLocation),
    createWireRecipient: async ({ body, headers, context }) =>
      created(await s.recipients.createWire(context.partnerId, body, headers['idempotency-key']), recipientLocation),
    listRecipients: async ({ query, context }) => ok(await s.recipients.list(context.partnerId, query)),
    updateRecipient: async ({ params, body, context }) => ok(await s.payeeUpdates.updateRecipient(context.partnerId, params.payeeId, body)),
    createPaymentRequest: async ({ body, headers, context }) => {
      const result = await s.payments.create(context.partnerId, body, context, headers['idempotency-key']);
      // A created payment (201) names its read; a replay of partnerPaymentUniqueId (200) is that read's answer.
      return result.status === 201
        ? created(result, (payment) => `/finance/v1/payment_request/${payment.paymentId}`)
        : { ...ok(result.body), replayed: result.replayed };
    },
    getPayment: async ({ params, context }) => ok(await s.payments.get(context.partnerId, params.paymentId)),
    cancelPayment: async ({ params, context }) => ok(await s.payments.cancel(context.partnerId, params.paymentId)),
    simulatePaymentNotificationOfChange: async ({ params, body, context }) =>
      ok(await s.payments.simulateNotificationOfChange(context.partnerId, params.paymentId, body)),
    simulatePaymentReturn: async ({ params, body, context }) =>
      ok(await s.payments.simulateReturn(context.partnerId, params.paymentId, body.returnCode)),
    searchPartnerTransactions: async ({ body, context }) => ok(await s.payments.searchForPartner(context.partnerId, body ?? {})),

    // Webhooks and events of the payments the partner requested (shared with group E, on the same paths): the
    // merchant's webhook and events services, scoped to the partner as their owner (events/owners.ts).
    createPartnerWebhook: async ({ body, headers, context }) =>
      created(
        await s.webhooks.create(partnerOwner(context.partnerId), body, headers['idempotency-key']),
        (webhook) => `/finance/v1/webhooks/${webhook.id}`,
      ),
    listPartnerWebhooks: async ({ context }) => ok(await s.webhooks.list(partnerOwner(context.partnerId))),
    deletePartnerWebhook: async ({ query, context }) => {
      await s.webhooks.remove(partnerOwner(context.partnerId), query.id);
      return noContent();
    },
    getPartnerWebhook: async ({ params, context }) => ok(await s.webhooks.get(partnerOwner(context.partnerId), params.id)),
    updatePartnerWebhook: async ({ params, body, context }) =>
      ok(await s.webhooks.update(partnerOwner(context.partnerId), params.id, body)),
    rotatePartnerWebhookSecret: async ({ params, context }) =>
      ok(await s.webhooks.rotateSecret(partnerOwner(context.partnerId), params.id)),
    testPartnerWebhook: async ({ params, context }) => ok(await s.webhookDeliveries.test(partnerOwner(context.partnerId), params.id)),
    redeliverPartnerWebhookDelivery: async ({ params, context }) =>
      ok(await s.webhookDeliveries.redeliver(partnerOwner(context.partnerId), params.id, params.deliveryId)),
    listPartnerWebhookDeliveries: async ({ params, query, context }) =>
      ok(await s.webhookDeliveries.list(partnerOwner(context.partnerId), params.id, query)),
    listPartnerEvents: async ({ query, context }) => ok(await s.events.list<PartnerEvent>(partnerOwner(context.partnerId), query)),
    getPartnerEvent: async ({ params, context }) => ok(await s.events.get<PartnerEvent>(partnerOwner(context.partnerId), params.eventId)),
  };
}
