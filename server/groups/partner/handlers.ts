// Group C, the partner API: a partner acts for the merchants linked to it. One handler per operation of
// generated/partner/routes.ts; POST /finance/v1/payment_request is the same operation as group E's.
import type { OperationId } from '../../../generated/partner/routes.js';
import type { components, operations } from '../../../generated/partner/schema.js';
import { issueTokenFor } from '../../auth/token-operations.js';
import type { GroupHandlers } from '../../http/operation-handler.js';
import type { RequestContext } from '../../auth/principal.js';
import { partnerOf } from '../../http/request-context.js';
import { linkedMerchants } from '../../partners/merchant-links.js';
import { requireOwnPartnerId } from '../../partners/partner-scope.js';
import type { Services } from '../../services.js';
import type { StoredResponse } from '../../store/idempotency.js';
import { partnerOwner } from '../../events/owners.js';

export type PartnerHandlers = GroupHandlers<operations, OperationId, RequestContext>;
type PartnerEvent = components['schemas']['PartnerEvent'];

/** A created recipient, listed by its payment network rail id. */
const created = <T extends { paymentNetworkRailPayeeId: string }>(result: StoredResponse<T>) => ({
  status: 201 as const,
  body: result.body,
  replayed: result.replayed,
  headers: { Location: `/finance/v1/payees?PaymentNetworkRailPayeeId=${result.body.paymentNetworkRailPayeeId}` },
});

export function partnerHandlers(s: Services): PartnerHandlers {
  return {
    generatePartnerToken: ({ body, context }) => issueTokenFor(s, 'partner', body.clientId, body.clientSecret, context),
    listPartnerMerchants: async ({ query, context }) => {
      const partnerId = partnerOf(context);
      requireOwnPartnerId(query.partnerId, partnerId, { parameter: 'partnerId', detail: 'unknown partner' });
      return { status: 200, body: await linkedMerchants(s.store, partnerId) };
    },
    createAchRecipient: async ({ body, headers, context }) =>
      created(await s.recipients.createAch(partnerOf(context), body, headers['idempotency-key'])),
    createWireRecipient: async ({ body, headers, context }) =>
      created(await s.recipients.createWire(partnerOf(context), body, headers['idempotency-key'])),
    listRecipients: async ({ query, context }) => ({ status: 200, body: await s.recipients.list(partnerOf(context), query) }),
    updateRecipient: async ({ params, body, context }) => ({
      status: 200,
      body: await s.payeeUpdates.updateRecipient(partnerOf(context), params.payeeId, body),
    }),
    createPaymentRequest: async ({ body, headers, context }) => {
      const result = await s.payments.create(partnerOf(context), body, context, headers['idempotency-key']);
      // A created payment (201) names its read; a replay of partnerPaymentUniqueId (200) is that read's answer.
      return result.status === 201
        ? { ...result, status: 201, headers: { Location: `/finance/v1/payment_request/${result.body.paymentId}` } }
        : { ...result, status: 200 };
    },
    getPayment: async ({ params, context }) => ({ status: 200, body: await s.payments.get(partnerOf(context), params.paymentId) }),
    cancelPayment: async ({ params, context }) => ({ status: 200, body: await s.payments.cancel(partnerOf(context), params.paymentId) }),
    simulatePaymentNotificationOfChange: async ({ params, body, context }) => ({
      status: 200,
      body: await s.payments.simulateNotificationOfChange(partnerOf(context), params.paymentId, body),
    }),
    simulatePaymentReturn: async ({ params, body, context }) => ({
      status: 200,
      body: await s.payments.simulateReturn(partnerOf(context), params.paymentId, body.returnCode),
    }),
    searchPartnerTransactions: async ({ body, context }) => ({
      status: 200,
      body: await s.payments.searchForPartner(partnerOf(context), body ?? {}),
    }),

    // Webhooks and events of the payments the partner requested (shared with group E, on the same paths): the
    // merchant's webhook and events services, scoped to the partner as their owner (events/owners.ts).
    createPartnerWebhook: async ({ body, headers, context }) => {
      const { body: webhook, replayed } = await s.webhooks.create(partnerOwner(partnerOf(context)), body, headers['idempotency-key']);
      return { status: 201, body: webhook, replayed, headers: { Location: `/finance/v1/webhooks/${webhook.id}` } };
    },
    listPartnerWebhooks: async ({ context }) => ({ status: 200, body: await s.webhooks.list(partnerOwner(partnerOf(context))) }),
    deletePartnerWebhook: async ({ query, context }) => {
      await s.webhooks.remove(partnerOwner(partnerOf(context)), query.id);
      return { status: 204 };
    },
    getPartnerWebhook: async ({ params, context }) => ({
      status: 200,
      body: await s.webhooks.get(partnerOwner(partnerOf(context)), params.id),
    }),
    updatePartnerWebhook: async ({ params, body, context }) => ({
      status: 200,
      body: await s.webhooks.update(partnerOwner(partnerOf(context)), params.id, body),
    }),
    rotatePartnerWebhookSecret: async ({ params, context }) => ({
      status: 200,
      body: await s.webhooks.rotateSecret(partnerOwner(partnerOf(context)), params.id),
    }),
    testPartnerWebhook: async ({ params, context }) => ({
      status: 200,
      body: await s.webhookDeliveries.test(partnerOwner(partnerOf(context)), params.id),
    }),
    redeliverPartnerWebhookDelivery: async ({ params, context }) => ({
      status: 200,
      body: await s.webhookDeliveries.redeliver(partnerOwner(partnerOf(context)), params.id, params.deliveryId),
    }),
    listPartnerWebhookDeliveries: async ({ params, query, context }) => ({
      status: 200,
      body: await s.webhookDeliveries.list(partnerOwner(partnerOf(context)), params.id, query),
    }),
    listPartnerEvents: async ({ query, context }) => ({
      status: 200,
      body: await s.events.list<PartnerEvent>(partnerOwner(partnerOf(context)), query),
    }),
    getPartnerEvent: async ({ params, context }) => ({
      status: 200,
      body: await s.events.get<PartnerEvent>(partnerOwner(partnerOf(context)), params.eventId),
    }),
  };
}
