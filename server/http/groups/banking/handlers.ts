// Group D, the banking API: one handler per operation of generated/banking/routes.ts. The merchant is
// always the token's; handlers only translate between the contract and the banking services. Every create
// answers 201 with a Location where the created thing is read, and a replayed Idempotency-Key with
// `Idempotent-Replayed: true` (`replayed`, which mountGroup turns into the header).
import type { OperationId } from '../../../../generated/banking/routes.js';
import type { operations } from '../../../../generated/banking/schema.js';
import { issueOAuthToken } from '../../../domain/auth/token-operations.js';
import type { GroupHandlers } from '../../operation-handler.js';
import type { MerchantContext } from '../../request-context.js';
import { created, ok } from '../../results.js';
import type { Services } from '../../../domain/services.js';

export type BankingHandlers = GroupHandlers<operations, OperationId, MerchantContext, 'issueToken'>;

const transferLocation = (t: { id: number }) => `/finance/api/v1/transaction/${t.id}`;

export function bankingHandlers(s: Services): BankingHandlers {
  const b = s.banking;
  return {
    issueToken: ({ body, headers, context }) => issueOAuthToken(s, headers.authorization, body, context),

    createBusiness: async ({ body, headers, context }) =>
      created(await b.businesses.create(context.merchantId, body, headers['idempotency-key']), (x) => `/finance/api/v1/business/${x.id}`),
    getBusiness: async ({ params, context }) => ok(await b.businesses.get(context.merchantId, params.id)),
    listBusinesses: async ({ query, context }) => ok(await b.reads.businesses(context.merchantId, query)),
    listBusinessAccounts: async ({ params, query, context }) => ok(await b.reads.accounts(context.merchantId, params.id, query)),
    listBankingCounterparties: async ({ params, query, context }) => ok(await b.reads.counterparties(context.merchantId, params.id, query)),

    createIdentityVerification: async ({ body, headers, context }) =>
      created(
        await b.verifications.create(context.merchantId, body, headers['idempotency-key']),
        (x) => `/finance/api/v1/identity-verification/${x.id}`,
      ),
    getIdentityVerification: async ({ params, context }) => ok(await b.reads.verification(context.merchantId, params.verificationId)),

    createBankingCounterparty: async ({ body, headers, context }) =>
      created(
        await b.counterparties.create(context.merchantId, body, headers['idempotency-key']),
        (x) => `/finance/api/v1/counterparty/${x.id}`,
      ),
    getBankingCounterparty: async ({ params, context }) => ok(await b.reads.counterparty(context.merchantId, params.counterpartyId)),

    createAccount: async ({ params, body, headers, context }) =>
      created(
        await b.accounts.create(context.merchantId, params.businessId, body, headers['idempotency-key']),
        (x) => `/finance/api/v1/business/${params.businessId}/accounts/${x.id}`,
      ),
    getAccountBalance: async ({ params, context }) => ok(await b.accounts.balance(context.merchantId, params.accountId)),
    getAccount: async ({ params, context }) => ok(await b.reads.account(context.merchantId, params.id, params.accountId)),
    getAccountNumbers: async ({ params, context }) =>
      ok(await b.accountNumbers.read(context.merchantId, params.accountId, context.requestId)),
    listAccountLedgerEntries: async ({ params, query, context }) =>
      ok(await b.statements.entries(context.merchantId, params.accountId, query)),

    createAchPull: async ({ body, headers, context }) =>
      created(await b.transfers.achPull(context.merchantId, body, headers['idempotency-key']), transferLocation),
    createAchPush: async ({ body, headers, context }) =>
      created(await b.transfers.achPush(context.merchantId, body, headers['idempotency-key']), transferLocation),
    createDomesticWire: async ({ body, headers, context }) =>
      created(await b.transfers.domesticWire(context.merchantId, body, headers['idempotency-key']), transferLocation),
    createInternationalWire: async ({ body, headers, context }) =>
      created(await b.transfers.internationalWire(context.merchantId, body, headers['idempotency-key']), transferLocation),
    createInternalTransfer: async ({ body, headers, context }) =>
      created(await b.transfers.internal(context.merchantId, body, headers['idempotency-key']), transferLocation),
    getTransfer: async ({ params, context }) => ok(await b.transferReads.get(context.merchantId, params.transferId)),
    listAccountTransfers: async ({ params, query, context }) =>
      ok(await b.transferReads.forAccount(context.merchantId, params.accountId, query)),

    simulateInboundTransfer: async ({ body, headers, context }) =>
      created(await b.simulations.inboundTransfer(context.merchantId, body, headers['idempotency-key']), transferLocation),
    simulateTransferSettlement: async ({ params, body, context }) =>
      ok(await b.simulations.settle(context.merchantId, params.transferId, body.status)),
    simulateTransferReturn: async ({ params, body, context }) =>
      ok(await b.simulations.returnTransfer(context.merchantId, params.transferId, body.returnCode)),
    simulateNotificationOfChange: async ({ params, body, context }) =>
      ok(await b.simulations.notificationOfChange(context.merchantId, params.transferId, body)),
    simulateVerificationDecision: async ({ params, body, context }) =>
      ok(await b.simulations.decideVerification(context.merchantId, params.verificationId, body)),
  };
}
