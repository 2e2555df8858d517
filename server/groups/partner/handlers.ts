// Group C, the partner API: a partner acts for the merchants linked to it. One handler per operation of
// generated/partner/routes.ts; POST /finance/v1/payment_request is the same operation as group E's.
import type { OperationId } from '../../../generated/partner/routes.js';
import type { operations } from '../../../generated/partner/schema.js';
import { issueTokenFor } from '../../auth/token-operations.js';
import type { GroupHandlers } from '../../http/operation-handler.js';
import type { RequestContext } from '../../auth/principal.js';
import { partnerOf } from '../../http/request-context.js';
import { linkedMerchants } from '../../partners/merchant-links.js';
import { requireOwnPartnerId } from '../../partners/partner-scope.js';
import type { Services } from '../../services.js';

export type PartnerHandlers = GroupHandlers<operations, OperationId, RequestContext>;

export function partnerHandlers(s: Services): PartnerHandlers {
  return {
    generatePartnerToken: ({ body, context }) => issueTokenFor(s, 'partner', body.clientId, body.clientSecret, context),
    listPartnerMerchants: async ({ query, context }) => {
      const partnerId = partnerOf(context);
      requireOwnPartnerId(query.partnerId, partnerId, { parameter: 'partnerId', detail: 'unknown partner' });
      return { status: 200, body: await linkedMerchants(s.store, partnerId) };
    },
    createAchRecipient: async ({ body, context }) => {
      const recipient = await s.recipients.createAch(partnerOf(context), body);
      return {
        status: 201,
        body: recipient,
        headers: { Location: `/finance/v1/payees?PaymentNetworkRailPayeeId=${recipient.paymentNetworkRailPayeeId}` },
      };
    },
    createWireRecipient: async ({ body, context }) => {
      const recipient = await s.recipients.createWire(partnerOf(context), body);
      return {
        status: 201,
        body: recipient,
        headers: { Location: `/finance/v1/payees?PaymentNetworkRailPayeeId=${recipient.paymentNetworkRailPayeeId}` },
      };
    },
    listRecipients: async ({ query, context }) => ({ status: 200, body: await s.recipients.list(partnerOf(context), query) }),
    createPaymentRequest: async ({ body, context }) => s.payments.create(partnerOf(context), body, context),
    searchPartnerTransactions: async ({ body, context }) => ({
      status: 200,
      body: await s.payments.searchForPartner(partnerOf(context), body ?? {}),
    }),
  };
}
