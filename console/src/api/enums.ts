// The choices the console offers that are a request property's own enumeration rather than a named schema of the
// contract (the named ones are the client package's lists: `merchantEnums.PayoutState`, `bankingEnums.TransferType`,
// ...). Each is listed here and held to the generated types: a value the contract adds or removes fails the
// console's typecheck until the list follows.
import type { BankingComponents, MerchantComponents } from '@payout-service/client';

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? unknown : { missing: Exclude<All, Listed> };
const every =
  <All extends string>() =>
  <const Listed extends readonly All[]>(list: Listed & Missing<All, Listed[number]>): readonly All[] =>
    list;

export const payoutFailureReasons = every<MerchantComponents['schemas']['PayoutFailureSimulationRequest']['Reason']>()([
  'account_closed',
  'invalid_account',
  'account_frozen',
  'bank_rejected',
  'compliance_rejected',
]);

export const verificationDecisions = every<BankingComponents['schemas']['VerificationDecisionSimulationRequest']['status']>()([
  'approved',
  'rejected',
  'needs_review',
]);
