// Group D, the banking API: one handler per operation of generated/banking/routes.ts. The merchant is
// always the token's; handlers only translate between the contract and the banking services. Every create
// answers 201 with a Location where the created thing is read, and a replayed Idempotency-Key with
// `Idempotent-Replayed: true` (`replayed`, which mountGroup turns into the header).
import type { OperationId } from '../../../generated/banking/routes.js';
import type { operations } from '../../../generated/banking/schema.js';
import { issueOAuthToken } from '../../auth/token-operations.js';
import type { GroupHandlers } from '../../http/operation-handler.js';
import type { RequestContext } from '../../auth/principal.js';
import { merchantOf } from '../../http/request-context.js';
import type { Services } from '../../services.js';
import type { StoredResponse } from '../../store/idempotency.js';

export type BankingHandlers = GroupHandlers<operations, OperationId, RequestContext>;

const created = <T extends { id: number }>(result: StoredResponse<T>, location: (body: T) => string) => ({
  status: 201 as const,
  body: result.body,
  replayed: result.replayed,
  headers: { Location: location(result.body) },
});
const transferLocation = (t: { id: number }) => `/finance/api/v1/transaction/${t.id}`;

export function bankingHandlers(s: Services): BankingHandlers {
  const b = s.banking;
  return {
    issueToken: ({ body, headers, context }) => issueOAuthToken(s, headers.authorization, body, context),

    createBusiness: async ({ body, headers, context }) =>
      created(await b.businesses.create(merchantOf(context), body, headers['idempotency-key']), (x) => `/finance/api/v1/business/${x.id}`),
    getBusiness: async ({ params, context }) => ({ status: 200, body: await b.businesses.get(merchantOf(context), params.id) }),
    listBusinesses: async ({ query, context }) => ({ status: 200, body: await b.reads.businesses(merchantOf(context), query) }),
    listBusinessAccounts: async ({ params, query, context }) => ({
      status: 200,
      body: await b.reads.accounts(merchantOf(context), params.id, query),
    }),
    listBankingCounterparties: async ({ params, query, context }) => ({
      status: 200,
      body: await b.reads.counterparties(merchantOf(context), params.id, query),
    }),

    createIdentityVerification: async ({ body, headers, context }) =>
      created(
        await b.verifications.create(merchantOf(context), body, headers['idempotency-key']),
        (x) => `/finance/api/v1/identity-verification/${x.id}`,
      ),
    getIdentityVerification: async ({ params, context }) => ({
      status: 200,
      body: await b.reads.verification(merchantOf(context), params.verificationId),
    }),

    createBankingCounterparty: async ({ body, headers, context }) =>
      created(
        await b.counterparties.create(merchantOf(context), body, headers['idempotency-key']),
        (x) => `/finance/api/v1/counterparty/${x.id}`,
      ),
    getBankingCounterparty: async ({ params, context }) => ({
      status: 200,
      body: await b.reads.counterparty(merchantOf(context), params.counterpartyId),
    }),

    createAccount: async ({ params, body, headers, context }) =>
      created(
        await b.accounts.create(merchantOf(context), params.businessId, body, headers['idempotency-key']),
        (x) => `/finance/api/v1/business/${params.businessId}/accounts/${x.id}`,
      ),
    getAccountBalance: async ({ params, context }) => ({
      status: 200,
      body: await b.accounts.balance(merchantOf(context), params.accountId),
    }),
    getAccount: async ({ params, context }) => ({
      status: 200,
      body: await b.reads.account(merchantOf(context), params.id, params.accountId),
    }),
    getAccountNumbers: async ({ params, context }) => ({
      status: 200,
      body: await b.accountNumbers.read(merchantOf(context), params.accountId, context.requestId),
    }),
    listAccountLedgerEntries: async ({ params, query, context }) => ({
      status: 200,
      body: await b.statements.entries(merchantOf(context), params.accountId, query),
    }),

    createAchPull: async ({ body, headers, context }) =>
      created(await b.transfers.achPull(merchantOf(context), body, headers['idempotency-key']), transferLocation),
    createAchPush: async ({ body, headers, context }) =>
      created(await b.transfers.achPush(merchantOf(context), body, headers['idempotency-key']), transferLocation),
    createDomesticWire: async ({ body, headers, context }) =>
      created(await b.transfers.domesticWire(merchantOf(context), body, headers['idempotency-key']), transferLocation),
    createInternationalWire: async ({ body, headers, context }) =>
      created(await b.transfers.internationalWire(merchantOf(context), body, headers['idempotency-key']), transferLocation),
    createInternalTransfer: async ({ body, headers, context }) =>
      created(await b.transfers.internal(merchantOf(context), body, headers['idempotency-key']), transferLocation),
    getTransfer: async ({ params, context }) => ({ status: 200, body: await b.transferReads.get(merchantOf(context), params.transferId) }),
    listAccountTransfers: async ({ params, query, context }) => ({
      status: 200,
      body: await b.transferReads.forAccount(merchantOf(context), params.accountId, query),
    }),

    simulateInboundTransfer: async ({ body, headers, context }) =>
      created(await b.simulations.inboundTransfer(merchantOf(context), body, headers['idempotency-key']), transferLocation),
    simulateTransferSettlement: async ({ params, body, context }) => ({
      status: 200,
      body: await b.simulations.settle(merchantOf(context), params.transferId, body.status),
    }),
    simulateTransferReturn: async ({ params, body, context }) => ({
      status: 200,
      body: await b.simulations.returnTransfer(merchantOf(context), params.transferId, body.returnCode),
    }),
    simulateNotificationOfChange: async ({ params, body, context }) => ({
      status: 200,
      body: await b.simulations.notificationOfChange(merchantOf(context), params.transferId, body),
    }),
    simulateVerificationDecision: async ({ params, body, context }) => ({
      status: 200,
      body: await b.simulations.decideVerification(merchantOf(context), params.verificationId, body),
    }),
  };
}
