// The token operations: client credentials in, a bearer token out. Failures never say which credential was
// wrong, and repeated failures for one Client ID from one address, or from one address across clients, are
// refused with 429 for a while (failed-attempts.ts); the right secret from another address still works.
import { bodyField, Problem } from '../../platform/problems.js';
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
  const authentication = await services.credentials.authenticate(kind, clientId, clientSecret);
  if (authentication.refused === 'replaced') {
    // A secret this client really had: not a guess, so it is not counted, and a client stuck on it cannot lock
    // its successor out of this address.
    await attempt.notAGuess();
    throw replacedSecret(refusal(), authentication.rolledAt);
  }
  if (authentication.refused) throw refusal();
  const principal = authentication.principal;
  await attempt.succeeded();
  // The credential's "last used", for its owner's console: at most one write a minute, and never the request's failure.
  await services.credentials.markUsed(clientId).catch(() => {});
  return { status: 200, body: await services.tokens.issue(principal), headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
}

/** `POST /oauth/token` (groups A and D): the credentials from the body or an `Authorization: Basic` header. */
export function issueOAuthToken(
  services: Pick<Services, 'credentials' | 'tokens' | 'failedTokenAttempts'>,
  authorization: string | undefined,
  body: { client_id?: string; client_secret?: string; scope?: string },
  context: RequestContext,
): Promise<TokenResult> {
  const { clientId, clientSecret, method } = clientCredentialsOf(authorization, body);
  refuseNamedScopes(body.scope);
  return issueTokenFor(services, 'merchant', clientId, clientSecret, context, method === 'basic' ? invalidBasicClient : invalidBodyClient);
}

type TokenResult = { status: 200; body: IssuedToken; headers: Record<string, string> };

/** The refusal of a secret that was replaced: the same status, `error` and challenge, saying what happened. */
function replacedSecret(refusal: Problem, rolledAt: number): Problem {
  return new Problem(
    'invalid-client',
    `This Client Secret was replaced on ${new Date(rolledAt).toISOString()} and no longer works; use the Client Secret that replaced it.`,
    refusal.extra,
  );
}

function invalidBodyClient(): Problem {
  return new Problem('invalid-client', 'The Client ID or Client Secret is wrong, or the credentials were revoked.', {
    error: 'invalid_client',
    challenge: { scheme: 'Bearer', realm: 'payouts', error: 'invalid_client' },
  });
}

/** RFC 6749 §3.3: `scope` is optional, and an empty one asks for nothing. A credential holds no named scopes (its
 * tokens carry all of its access), so a request naming any is refused `invalid_scope` before the secret is checked:
 * issuing a token with more access than was asked for would be the wrong answer to a client narrowing its own. */
export function refuseNamedScopes(scope: string | undefined): void {
  const named = (scope ?? '').split(' ').filter((s) => s !== '');
  if (named.length === 0) return;
  const shown = named.slice(0, 5).map((s) => s.slice(0, 40).replace(/[^\x21-\x7E]/g, '?'));
  const list = shown.join(' ') + (named.length > shown.length ? ' ...' : '');
  // Its own problem type, not `validation-error`: the body fits the contract; what it asks for is not held.
  throw new Problem(
    'invalid-scope',
    `This credential holds no scope named in scope (${list}); leave scope out for a token with all of its access.`,
    {
      errors: [bodyField('scope', `names scopes this credential does not hold (${list})`)],
      error: 'invalid_scope',
    },
  );
}
