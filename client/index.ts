// The package's entry point: `import { createMerchantClient } from '@payout-service/client'`.
export {
  createBankingClient,
  createCounterpartyClient,
  createMerchantClient,
  createPartnerClient,
  createPlatformClient,
  type BankingClient,
  type ClientOptions,
  type CounterpartyClient,
  type Credentials,
  type MerchantClient,
  type MerchantClientOptions,
  type PartnerClient,
  type PlatformClient,
} from './create-clients.js';
export {
  ApiProblemError,
  unwrap,
  type KnownProblemKind,
  type ProblemDetails,
  type ProblemFieldError,
  type ProblemKind,
  type Unwrapped,
} from './problem-error.js';
export { ConnectionError, TimeoutError } from './errors.js';
export type { AttemptLog, RetryOptions } from './retry.js';
export type { Fetch } from './transport.js';
export { keyedOperations, newIdempotencyKey } from './idempotency.js';
export { TokenProvider, type IssuedToken, type TokenProviderOptions } from './token-provider.js';
export {
  byCursor,
  eachAccountLedgerEntry,
  eachAccountTransfer,
  eachBankingCounterparty,
  eachBusiness,
  eachBusinessAccount,
  eachCounterparty,
  eachEvent,
  eachPartnerEvent,
  eachPartnerTransaction,
  eachPartnerWebhookDelivery,
  eachPayee,
  eachPayout,
  eachRecipient,
  eachTransaction,
  eachWebhookDelivery,
} from './paginate.js';
export {
  constructEvent,
  isPaymentEvent,
  isPayoutEvent,
  parseUnsignedEvent,
  receiveEvent,
  receivePayoutEvent,
  type NocEvent,
  type PartnerWebhookEvent,
  type PaymentEvent,
  type TransferEvent,
  type VerificationEvent,
  type WebhookEvent,
  type WebhookTestEvent,
  type PayoutCancelledEvent,
  type PayoutCompletedEvent,
  type PayoutCreatedEvent,
  type PayoutEvent,
  type PayoutEventState,
  type PayoutFailedEvent,
  type PayoutProcessingEvent,
  type PayoutReturnedEvent,
  type PayoutSentEvent,
} from './webhooks.js';
export { signWebhook, verifyWebhook, WebhookVerificationError } from './webhook-signature.js';
export type { paths as MerchantPaths, components as MerchantComponents } from '../generated/merchant/schema.js';
export type { paths as PlatformPaths, components as PlatformComponents } from '../generated/platform/schema.js';
export type { paths as PartnerPaths, components as PartnerComponents } from '../generated/partner/schema.js';
export type { paths as BankingPaths, components as BankingComponents } from '../generated/banking/schema.js';
export type { paths as CounterpartyPaths, components as CounterpartyComponents } from '../generated/counterparty/schema.js';
// The value lists of each group's named enumerations (event types, states, statuses...), under the schemas' names:
// `merchantEnums.WebhookEventType` lists what `MerchantComponents['schemas']['WebhookEventType']` admits.
export * as merchantEnums from '../generated/merchant/enums.js';
/** The payout states each state-changing operation acts on (cancel, the sandbox's return, failure and release). */
export { fromStates as payoutFromStates } from '../generated/merchant/from-states.js';
export * as platformEnums from '../generated/platform/enums.js';
export * as partnerEnums from '../generated/partner/enums.js';
export * as bankingEnums from '../generated/banking/enums.js';
export * as counterpartyEnums from '../generated/counterparty/enums.js';
