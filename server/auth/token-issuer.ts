// Issues and verifies the service's access tokens: EdDSA JWTs with kid, issuer, audience and a one-hour
// lifetime. Verification pins the algorithm, the key id, the issuer and the audience (RFC 8725).
import { SignJWT, errors, jwtVerify } from 'jose';
import { Problem } from '../http/problem.js';
import { principalOf, subjectOf, type Principal } from './principal.js';
import type { SigningKey } from './signing-keys.js';

export const tokenLifetimeSeconds = 3600;
const issuer = 'https://auth.payouts.example';
const audience = 'payout-service';

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

const unauthorized = (description: string) =>
  new Problem('unauthorized', description, {
    error: 'invalid_token',
    headers: { 'WWW-Authenticate': `Bearer realm="payouts", error="invalid_token", error_description="${description.replace(/"/g, "'")}"` },
  });

/** Tokens verified recently, kept so that a caller's every request does not pay for an Ed25519 check. */
const verifiedCacheSize = 10_000;

export class TokenIssuer {
  // A token is immutable and nothing revokes one before its `exp` (rotating a secret stops new tokens only),
  // so a token that verified once stays valid until it expires; expiry is still checked on every request.
  private readonly verified = new Map<string, { principal: Principal; exp: number }>();

  constructor(private readonly key: SigningKey) {}

  async issue(principal: Principal): Promise<IssuedToken> {
    const token = await new SignJWT(principal.clientId ? { client_id: principal.clientId } : {})
      .setProtectedHeader({ alg: 'EdDSA', kid: this.key.kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subjectOf(principal))
      .setIssuedAt()
      .setExpirationTime(`${tokenLifetimeSeconds}s`)
      .sign(this.key.privateKey);
    return { access_token: token, token_type: 'Bearer', expires_in: tokenLifetimeSeconds };
  }

  /** The caller of an `Authorization` header, or a 401 problem saying what is wrong. */
  async verify(authorization: string | undefined): Promise<Principal> {
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(authorization ?? '');
    if (!match) {
      throw new Problem('unauthorized', "Send an access token in the Authorization header as 'Bearer <token>'.", {
        error: 'invalid_token',
        headers: { 'WWW-Authenticate': 'Bearer realm="payouts"' },
      });
    }
    const token = match[1]!;
    const known = this.verified.get(token);
    // Expired as jose counts it (exp <= now, in whole seconds): dropped, and the full check below says why.
    if (known && known.exp > Math.floor(Date.now() / 1000)) return known.principal;
    this.verified.delete(token);
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.key.publicKey, {
        algorithms: ['EdDSA'],
        issuer,
        audience,
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const principal = protectedHeader.kid === this.key.kid ? principalOf(payload.sub ?? '') : undefined;
      if (!principal) throw unauthorized('The access token was not issued by this service.');
      const verified = typeof payload.client_id === 'string' ? { ...principal, clientId: payload.client_id } : principal;
      if (this.verified.size >= verifiedCacheSize) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { principal: verified, exp: payload.exp! });
      return verified;
    } catch (err) {
      if (err instanceof Problem) throw err;
      if (err instanceof errors.JWTExpired) throw unauthorized('The access token expired; request a new one with the same credentials.');
      throw unauthorized('The access token is not valid.');
    }
  }
}
