// The public API's clients of the signed-in merchant or partner: the client package's factories, on this origin,
// with the session's access tokens (console-api.ts) in place of credentials.
import {
  type BankingClient,
  createBankingClient,
  createMerchantClient,
  createPartnerClient,
  type MerchantClient,
  type PartnerClient,
} from '@payout-service/client';
import { accessTokens, type Session } from './console-api.js';

export type Clients = { kind: 'merchant'; merchant: MerchantClient; banking: BankingClient } | { kind: 'partner'; partner: PartnerClient };

export function clientsFor(session: Session): Clients | undefined {
  // One retry: a person is waiting, and the page says what failed.
  const options = { baseUrl: location.origin, token: accessTokens, maxRetries: 1, timeout: 30_000 };
  if (session.owner.kind === 'merchant')
    return { kind: 'merchant', merchant: createMerchantClient(options), banking: createBankingClient(options) };
  if (session.owner.kind === 'partner') return { kind: 'partner', partner: createPartnerClient(options) };
  return undefined;
}
