// Group A, the merchant payout API: one handler per operation of generated/merchant/routes.ts. The merchant
// is always the token's; handlers only translate between the contract and the services.
import type { OperationId } from '../../../generated/merchant/routes.js';
import type { operations } from '../../../generated/merchant/schema.js';
import { issueOAuthToken } from '../../auth/token-operations.js';
import type { GroupHandlers } from '../../http/operation-handler.js';
import type { RequestContext } from '../../auth/principal.js';
import { merchantOf } from '../../http/request-context.js';
import { merchantOwner } from '../../events/owners.js';
import type { Services } from '../../services.js';

export type MerchantHandlers = GroupHandlers<operations, OperationId, RequestContext>;

export function merchantHandlers(s: Services): MerchantHandlers {
  return {
    issueToken: ({ body, headers, context }) => issueOAuthToken(s, headers.authorization, body, context),

    createPayee: async ({ body, headers, context }) => {
      const { body: payee, replayed } = await s.payees.create(merchantOf(context), body, headers['idempotency-key']);
      return { status: 201, body: payee, replayed, headers: { Location: `/v1/payees/${payee.id}` } };
    },
    getPayee: async ({ params, context }) => ({ status: 200, body: await s.payees.get(merchantOf(context), params.id) }),
    updatePayee: async ({ params, body, context }) => ({ status: 200, body: await s.payees.update(merchantOf(context), params.id, body) }),
    listPayees: async ({ body, context }) => ({ status: 200, body: await s.payees.list(merchantOf(context), body ?? {}) }),

    createPayeeAccount: async ({ params, body, headers, context }) => {
      const { body: created, replayed } = await s.accounts.create(merchantOf(context), params.id, body, headers['idempotency-key']);
      const Location = `/v1/payees/${params.id}/accounts/${created.PayeeAccountId}`;
      return { status: 201, body: created, replayed, headers: { Location } };
    },
    listPayeeAccounts: async ({ params, context }) => ({ status: 200, body: await s.accounts.list(merchantOf(context), params.id) }),
    getPayeeAccount: async ({ params, context }) => ({
      status: 200,
      body: await s.accounts.get(merchantOf(context), params.id, params.account_id),
    }),
    updatePayeeAccount: async ({ params, body, context }) => ({
      status: 200,
      body: await s.accounts.update(merchantOf(context), params.id, params.account_id, body),
    }),
    disablePayeeAccount: async ({ params, context }) => {
      await s.accounts.disable(merchantOf(context), params.id, params.account_id);
      return { status: 200, body: { accountId: params.account_id, message: `Payee account ${params.account_id} is disabled.` } };
    },

    createPayout: async ({ body, headers, context }) => {
      const { body: payout, replayed } = await s.payouts.create(merchantOf(context), body, headers['idempotency-key']);
      return { status: 202, body: payout, replayed, headers: { Location: `/v1/payouts/${payout.PayoutUniqueReference}` } };
    },
    listPayouts: async ({ query, context }) => ({ status: 200, body: await s.payouts.list(merchantOf(context), query) }),
    getPayout: async ({ params, context }) => ({
      status: 200,
      body: await s.payouts.get(merchantOf(context), params.PayoutUniqueReference),
    }),
    cancelPayout: async ({ params, context }) => ({
      status: 200,
      body: await s.payouts.cancel(merchantOf(context), params.PayoutUniqueReference),
    }),
    simulatePayoutRelease: async ({ params, context }) => ({
      status: 200,
      body: await s.payouts.release(merchantOf(context), params.PayoutUniqueReference),
    }),
    simulatePayoutFailure: async ({ params, body, context }) => ({
      status: 200,
      body: await s.payouts.simulateFailure(merchantOf(context), params.PayoutUniqueReference, body.Reason),
    }),
    simulatePayoutReturn: async ({ params, body, context }) => ({
      status: 200,
      body: await s.payouts.simulateReturn(merchantOf(context), params.PayoutUniqueReference, body.ReturnCode),
    }),

    createWebhook: async ({ body, headers, context }) => {
      const { body: webhook, replayed } = await s.webhooks.create(merchantOwner(merchantOf(context)), body, headers['idempotency-key']);
      return { status: 201, body: webhook, replayed, headers: { Location: `/v1/webhooks/${webhook.id}` } };
    },
    listWebhooks: async ({ context }) => ({ status: 200, body: await s.webhooks.list(merchantOwner(merchantOf(context))) }),
    deleteWebhook: async ({ query, context }) => {
      await s.webhooks.remove(merchantOwner(merchantOf(context)), query.id);
      return { status: 204 };
    },
    getWebhook: async ({ params, context }) => ({ status: 200, body: await s.webhooks.get(merchantOwner(merchantOf(context)), params.id) }),
    updateWebhook: async ({ params, body, context }) => ({
      status: 200,
      body: await s.webhooks.update(merchantOwner(merchantOf(context)), params.id, body),
    }),
    rotateWebhookSecret: async ({ params, context }) => ({
      status: 200,
      body: await s.webhooks.rotateSecret(merchantOwner(merchantOf(context)), params.id),
    }),
    testWebhook: async ({ params, context }) => ({
      status: 200,
      body: await s.webhookDeliveries.test(merchantOwner(merchantOf(context)), params.id),
    }),
    redeliverWebhookDelivery: async ({ params, context }) => ({
      status: 200,
      body: await s.webhookDeliveries.redeliver(merchantOwner(merchantOf(context)), params.id, params.deliveryId),
    }),
    listWebhookDeliveries: async ({ params, query, context }) => ({
      status: 200,
      body: await s.webhookDeliveries.list(merchantOwner(merchantOf(context)), params.id, query),
    }),
    listEvents: async ({ query, context }) => ({ status: 200, body: await s.events.list(merchantOwner(merchantOf(context)), query) }),
    getEvent: async ({ params, context }) => ({
      status: 200,
      body: await s.events.get(merchantOwner(merchantOf(context)), params.eventId),
    }),
  };
}
