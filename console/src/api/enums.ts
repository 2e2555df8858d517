// The contract's enumerations the console offers as choices, listed here and held to the generated types: a value
// the contract adds or removes fails the console's typecheck until the list follows.
import type { BankingComponents, MerchantComponents, PartnerComponents } from '@payout-service/client';

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? unknown : { missing: Exclude<All, Listed> };
const every =
  <All extends string>() =>
  <const Listed extends readonly All[]>(list: Listed & Missing<All, Listed[number]>): readonly All[] =>
    list;

type M = MerchantComponents['schemas'];
type P = PartnerComponents['schemas'];
type B = BankingComponents['schemas'];

export const merchantWebhookEvents = every<M['WebhookEventType']>()([
  'payout.created',
  'payout.processing',
  'payout.sent',
  'payout.completed',
  'payout.failed',
  'payout.cancelled',
  'payout.returned',
  'transfer.created',
  'transfer.processing',
  'transfer.completed',
  'transfer.failed',
  'transfer.returned',
  'verification.updated',
  'noc.received',
  'payment.created',
  'payment.processing',
  'payment.sent',
  'payment.completed',
  'payment.failed',
  'payment.cancelled',
  'payment.returned',
]);

export const merchantEventTypes = every<M['EventType']>()([...merchantWebhookEvents, 'webhook.test'] as const);

export const partnerWebhookEvents = every<P['PartnerWebhookEventType']>()([
  'payment.created',
  'payment.processing',
  'payment.sent',
  'payment.completed',
  'payment.failed',
  'payment.cancelled',
  'payment.returned',
  'noc.received',
]);

export const partnerEventTypes = every<P['PartnerEventType']>()([...partnerWebhookEvents, 'webhook.test'] as const);

export const payoutStates = every<M['PayoutState']>()(['created', 'processing', 'sent', 'completed', 'failed', 'cancelled', 'returned']);

export const payoutFailureReasons = every<M['PayoutFailureSimulationRequest']['Reason']>()([
  'account_closed',
  'invalid_account',
  'account_frozen',
  'bank_rejected',
  'compliance_rejected',
]);

export const transferTypes = every<B['TransferType']>()([
  'ACH_PULL',
  'ACH_PUSH',
  'WIRE_DOMESTIC',
  'WIRE_INTERNATIONAL',
  'INTERNAL',
  'INBOUND_ACH',
  'INBOUND_WIRE',
]);

export const transferStatuses = every<B['TransferStatus']>()(['pending', 'processing', 'completed', 'failed', 'returned']);

export const verificationDecisions = every<B['VerificationDecisionSimulationRequest']['status']>()([
  'approved',
  'rejected',
  'needs_review',
]);

export const environments = every<M['WebhookEnvironment']>()(['sandbox', 'production']);
