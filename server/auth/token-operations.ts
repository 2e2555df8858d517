// The token operations: client credentials in, a bearer token out. Failures never say which credential was
// wrong, and repeated failures from one Client ID or address are refused with 429 for a while.
import type { Principal } from './principal.js';
import { Problem } from '../http/problem.js';
import type { RequestContext } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { ClientKind } from './client-secrets.js';
import type { IssuedToken } from './token-issuer.js';

export async function issueTokenFor(
  services: Pick<Services, 'credentials' | 'tokens' | 'failedTokenAttempts'>,
  kind: ClientKind,
  clientId: string,
  clientSecret: string,
  context: RequestContext,
): Promise<{ status: 200; body: IssuedToken; headers: Record<string, string> }> {
  const keys = [`client:${clientId}`, `ip:${context.ip}`];
  services.failedTokenAttempts.check(keys);
  const principal: Principal | undefined = await services.credentials.authenticate(kind, clientId, clientSecret);
  if (!principal) {
    services.failedTokenAttempts.record(keys);
    throw new Problem('invalid-client', 'The Client ID or Client Secret is wrong, or the credentials were revoked.', {
      error: 'invalid_client',
      headers: { 'WWW-Authenticate': 'Bearer realm="payouts", error="invalid_client"' },
    });
  }
  return { status: 200, body: await services.tokens.issue(principal), headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
}
