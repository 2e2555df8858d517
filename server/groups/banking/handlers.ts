// Group D, the banking API: one handler per operation of generated/banking/routes.ts. The merchant is
// always the token's; handlers only translate between the contract and the banking services. Every create
// answers 201 (with a Location where the created thing can be read), and a replayed Idempotency-Key with
// `Idempotent-Replayed: true`.
import type { OperationId } from '../../../generated/banking/routes.js';
import type { operations } from '../../../generated/banking/schema.js';
import { issueTokenFor } from '../../auth/token-operations.js';
import type { GroupHandlers } from '../../http/operation-handler.js';
import type { RequestContext } from '../../auth/principal.js';
import { merchantOf } from '../../http/request-context.js';
import type { Services } from '../../services.js';
import type { StoredResponse } from '../../store/idempotency.js';

export type BankingHandlers = GroupHandlers<operations, OperationId, RequestContext>;

const created = <T extends { id: number }>(result: StoredResponse<T>, location?: (body: T) => string) => ({
  status: 201 as const,
  body: result.body,
  headers: { ...(location ? { Location: location(result.body) } : {}), ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
});

export function bankingHandlers(s: Services): BankingHandlers {
  const b = s.banking;
  return {
    issueToken: ({ body, context }) => issueTokenFor(s, 'merchant', body.client_id, body.client_secret, context),

    createBusiness: async ({ body, headers, context }) =>
      created(await b.businesses.create(merchantOf(context), body, headers['idempotency-key']), (x) => `/finance/api/v1/business/${x.id}`),
    getBusiness: async ({ params, context }) => ({ status: 200, body: await b.businesses.get(merchantOf(context), params.id) }),

    createIdentityVerification: async ({ body, headers, context }) =>
      created(await b.verifications.create(merchantOf(context), body, headers['idempotency-key'])),

    createBankingCounterparty: async ({ body, headers, context }) =>
      created(await b.counterparties.create(merchantOf(context), body, headers['idempotency-key'])),

    createAccount: async ({ params, body, headers, context }) =>
      created(
        await b.accounts.create(merchantOf(context), params.businessId, body, headers['idempotency-key']),
        (x) => `/finance/api/v1/account/${x.id}/balance`,
      ),
    getAccountBalance: async ({ params, context }) => ({
      status: 200,
      body: await b.accounts.balance(merchantOf(context), params.accountId),
    }),

    createAchPull: async ({ body, headers, context }) =>
      created(await b.transfers.achPull(merchantOf(context), body, headers['idempotency-key'])),
    createAchPush: async ({ body, headers, context }) =>
      created(await b.transfers.achPush(merchantOf(context), body, headers['idempotency-key'])),
    createDomesticWire: async ({ body, headers, context }) =>
      created(await b.transfers.domesticWire(merchantOf(context), body, headers['idempotency-key'])),
    createInternationalWire: async ({ body, headers, context }) =>
      created(await b.transfers.internationalWire(merchantOf(context), body, headers['idempotency-key'])),
    createInternalTransfer: async ({ body, headers, context }) =>
      created(await b.transfers.internal(merchantOf(context), body, headers['idempotency-key'])),
  };
}
