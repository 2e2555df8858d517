// Group A, the merchant payout API: one handler per operation of generated/merchant/routes.ts. The merchant
// is always the token's (the context's `merchantId`, decided by the security handler); handlers only translate
// between the contract and the services, answering through the result helpers (http/results.ts).
import type { OperationId } from '../../../../generated/merchant/routes.js';
import type { operations } from '../../../../generated/merchant/schema.js';
import { issueOAuthToken } from '../../../domain/auth/token-operations.js';
import type { GroupHandlers } from '../../operation-handler.js';
import type { MerchantContext } from '../../request-context.js';
import { accepted, created, noContent, ok } from '../../results.js';
import { merchantOwner } from '../../../domain/events/owners.js';
import type { Services } from '../../../domain/services.js';

export type MerchantHandlers = GroupHandlers<operations, OperationId, MerchantContext, 'issueToken'>;

export function merchantHandlers(s: Services): MerchantHandlers {
  return {
    issueToken: ({ body, headers, context }) => issueOAuthToken(s, headers.authorization, body, context),

    createPayee: async ({ body, headers, context }) =>
      created(await s.payees.create(context.merchantId, body, headers['idempotency-key']), (payee) => `/v1/payees/${payee.id}`),
    getPayee: async ({ params, context }) => ok(await s.payees.get(context.merchantId, params.id)),
    updatePayee: async ({ params, body, context }) => ok(await s.payees.update(context.merchantId, params.id, body)),
    listPayees: async ({ body, context }) => ok(await s.payees.list(context.merchantId, body ?? {})),

    createPayeeAccount: async ({ params, body, headers, context }) =>
      created(
        await s.accounts.create(context.merchantId, params.id, body, headers['idempotency-key']),
        (account) => `/v1/payees/${params.id}/accounts/${account.PayeeAccountId}`,
      ),
    listPayeeAccounts: async ({ params, context }) => ok(await s.accounts.list(context.merchantId, params.id)),
    getPayeeAccount: async ({ params, context }) => ok(await s.accounts.get(context.merchantId, params.id, params.account_id)),
    updatePayeeAccount: async ({ params, body, context }) =>
      ok(await s.accounts.update(context.merchantId, params.id, params.account_id, body)),
    disablePayeeAccount: async ({ params, context }) => {
      await s.accounts.disable(context.merchantId, params.id, params.account_id);
      return ok({ accountId: params.account_id, message: `Payee account ${params.account_id} is disabled.` });
    },

    createPayout: async ({ body, headers, context }) =>
      accepted(
        await s.payouts.create(context.merchantId, body, headers['idempotency-key']),
        (payout) => `/v1/payouts/${payout.PayoutUniqueReference}`,
      ),
    listPayouts: async ({ query, context }) => ok(await s.payouts.list(context.merchantId, query)),
    getPayout: async ({ params, context }) => ok(await s.payouts.get(context.merchantId, params.PayoutUniqueReference)),
    cancelPayout: async ({ params, context }) => ok(await s.payouts.cancel(context.merchantId, params.PayoutUniqueReference)),
    simulatePayoutRelease: async ({ params, context }) => ok(await s.payouts.release(context.merchantId, params.PayoutUniqueReference)),
    simulatePayoutFailure: async ({ params, body, context }) =>
      ok(await s.payouts.simulateFailure(context.merchantId, params.PayoutUniqueReference, body.Reason)),
    simulatePayoutReturn: async ({ params, body, context }) =>
      ok(await s.payouts.simulateReturn(context.merchantId, params.PayoutUniqueReference, body.ReturnCode)),

    createWebhook: async ({ body, headers, context }) =>
      created(
        await s.webhooks.create(merchantOwner(context.merchantId), body, headers['idempotency-key']),
        (webhook) => `/v1/webhooks/${webhook.id}`,
      ),
    listWebhooks: async ({ context }) => ok(await s.webhooks.list(merchantOwner(context.merchantId))),
    deleteWebhook: async ({ query, context }) => {
      await s.webhooks.remove(merchantOwner(context.merchantId), query.id);
      return noContent();
    },
    getWebhook: async ({ params, context }) => ok(await s.webhooks.get(merchantOwner(context.merchantId), params.id)),
    updateWebhook: async ({ params, body, context }) => ok(await s.webhooks.update(merchantOwner(context.merchantId), params.id, body)),
    rotateWebhookSecret: async ({ params, context }) => ok(await s.webhooks.rotateSecret(merchantOwner(context.merchantId), params.id)),
    testWebhook: async ({ params, context }) => ok(await s.webhookDeliveries.test(merchantOwner(context.merchantId), params.id)),
    redeliverWebhookDelivery: async ({ params, context }) =>
      ok(await s.webhookDeliveries.redeliver(merchantOwner(context.merchantId), params.id, params.deliveryId)),
    listWebhookDeliveries: async ({ params, query, context }) =>
      ok(await s.webhookDeliveries.list(merchantOwner(context.merchantId), params.id, query)),
    listEvents: async ({ query, context }) => ok(await s.events.list(merchantOwner(context.merchantId), query)),
    getEvent: async ({ params, context }) => ok(await s.events.get(merchantOwner(context.merchantId), params.eventId)),
  };
}
