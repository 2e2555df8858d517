// The bearer credential of an Authorization header and the challenges of a refusal (RFC 6750 §2.1 and §3).
// The one parser of the header: the security handlers and the rate limiter both read a token through it
// (TokenIssuer.verify), so that no part of the service accepts a spelling another part refuses.
import { Problem } from '../../platform/problems.js';

/** What an Authorization header holds: a token to verify, no bearer token at all, or a bearer credential
 * that cannot be a token (stray characters, a tab, a second word). */
export type BearerCredential = { token: string } | { missing: true } | { malformed: true };

// RFC 9110 §11.1 and §11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, the scheme
// case-insensitive. RFC 6750 §2.1: the bearer credential is one b64token (token68 by another name).
const schemeAndRest = /^(\S+)(\s*)(.*)$/s;
const b64token = /^[A-Za-z0-9\-._~+/]+=*$/;

export function bearerCredentialOf(header: string | undefined): BearerCredential {
  // Node has already trimmed the optional whitespace around the field value (RFC 9110 §5.5).
  const [, scheme = '', separator = '', credential = ''] = schemeAndRest.exec(header ?? '') ?? [];
  if (scheme.toLowerCase() !== 'bearer' || !credential) return { missing: true };
  return /^ +$/.test(separator) && b64token.test(credential) ? { token: credential } : { malformed: true };
}

/** No bearer token was sent: the challenge carries no error code (RFC 6750 §3.1). */
export const missingToken = (): Problem =>
  new Problem('unauthorized', "Send an access token in the Authorization header as 'Bearer <token>'.", {
    error: 'invalid_token',
    challenge: { scheme: 'Bearer', realm: 'payouts' },
  });

/** A token was sent and cannot be used: the detail says why, the challenge says `invalid_token`. */
export const invalidToken = (description: string): Problem =>
  new Problem('unauthorized', description, {
    error: 'invalid_token',
    challenge: { scheme: 'Bearer', realm: 'payouts', error: 'invalid_token', description },
  });
