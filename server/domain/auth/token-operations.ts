// The token operations: client credentials in, a bearer token out. Failures never say which credential was
// wrong, and repeated failures for one Client ID from one address, or from one address across clients, are
// refused with 429 for a while (failed-attempts.ts); the right secret from another address still works.
import { Problem } from '../../platform/problems.js';
import { clientCredentialsOf, invalidBasicClient } from './client-credentials.js';
import type { RequestContext } from './principal.js';
import type { Services } from '../services.js';
import type { ClientKind } from './client-secrets.js';
import type { IssuedToken } from './token-issuer.js';

export async function issueTokenFor(
  services: Pick<Services, 'credentials' | 'tokens' | 'failedTokenAttempts'>,
  kind: ClientKind,
  clientId: string,
  clientSecret: string,
  context: RequestContext,
  refusal: () => Problem = invalidBodyClient,
): Promise<TokenResult> {
  const attempt = await services.failedTokenAttempts.begin(clientId, context.ip);
  const principal = await services.credentials.authenticate(kind, clientId, clientSecret);
  if (!principal) throw refusal();
  await attempt.succeeded();
  // The credential's "last used", for its owner's console: at most one write a minute, and never the request's failure.
  await services.credentials.markUsed(clientId).catch(() => {});
  return { status: 200, body: await services.tokens.issue(principal), headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
}

/** `POST /oauth/token` (groups A and D): the credentials from the body or an `Authorization: Basic` header. */
export function issueOAuthToken(
  services: Pick<Services, 'credentials' | 'tokens' | 'failedTokenAttempts'>,
  authorization: string | undefined,
  body: { client_id?: string; client_secret?: string },
  context: RequestContext,
): Promise<TokenResult> {
  const { clientId, clientSecret, method } = clientCredentialsOf(authorization, body);
  return issueTokenFor(services, 'merchant', clientId, clientSecret, context, method === 'basic' ? invalidBasicClient : invalidBodyClient);
}

type TokenResult = { status: 200; body: IssuedToken; headers: Record<string, string> };

function invalidBodyClient(): Problem {
  return new Problem('invalid-client', 'The Client ID or Client Secret is wrong, or the credentials were revoked.', {
    error: 'invalid_client',
    headers: { 'WWW-Authenticate': 'Bearer realm="payouts", error="invalid_client"' },
  });
}
