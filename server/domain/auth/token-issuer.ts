// Issues and verifies the service's access tokens: EdDSA JWTs with kid, issuer, audience and a one-hour
// lifetime. Verification pins the algorithm, the key id, the issuer and the audience (RFC 8725), and refuses a
// token whose client's secret was rotated since it was issued (its `gen` claim is no longer the client's, nor the
// previous one during a roll's overlap), and a token minted for a console session (`sid`) once that session ended.
import { SignJWT, errors, jwtVerify } from 'jose';
import { Problem } from '../../platform/problems.js';
import { bearerCredentialOf, invalidToken, missingToken } from './bearer-header.js';
import type { ClientGenerations } from './client-generations.js';
import { principalOf, subjectOf, type Principal } from './principal.js';
import type { SigningKey } from './signing-keys.js';

export const tokenLifetimeSeconds = 3600;
const issuer = 'https://auth.payouts.example';
const audience = 'payout-service';

/** Whether a console session is live (console/session-liveness.ts); a token naming one ends with it. */
export interface SessionCheck {
  isLive(sessionId: string): Promise<boolean>;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

const notValid = 'The access token is not valid; request a new one with the client credentials.';
const expired = 'The access token expired; request a new one with the same credentials.';
const revoked =
  "The access token was revoked: its client's secret was rotated or the client was removed. Request a new one with the current secret.";
const sessionEnded = "The access token's console session ended (signed out or expired); sign in again.";

/** Tokens whose signature verified recently, kept so that a caller's every request does not pay for an Ed25519 check. */
const verifiedCacheSize = 10_000;

export class TokenIssuer {
  // A token is immutable, so its signature and claims, once verified, stay verified; its expiry and its
  // client's generation are still checked on every request.
  private readonly verified = new Map<string, { principal: Principal; exp: number }>();
  private readonly now: () => number;
  private readonly sessions: SessionCheck | undefined;

  constructor(
    private readonly key: SigningKey,
    private readonly clients: ClientGenerations,
    options: { now?: () => number; sessions?: SessionCheck } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sessions = options.sessions;
  }

  /** A token for the principal. One that names its client carries the client's generation: the one read with
   * the secret when the token operations authenticated it, else the current one. One minted for a console session
   * names it (`sid`). `lifetimeSeconds` shortens the hour. */
  async issue(principal: Principal, options: { lifetimeSeconds?: number } = {}): Promise<IssuedToken> {
    const { clientId, sessionId } = principal;
    const generation = clientId === undefined ? undefined : (principal.generation ?? (await this.clients.current(clientId))?.generation);
    if (clientId !== undefined && generation === undefined) throw new Error(`No active client ${clientId} to issue a token for.`);
    const lifetime = Math.max(1, Math.min(tokenLifetimeSeconds, Math.floor(options.lifetimeSeconds ?? tokenLifetimeSeconds)));
    const issuedAt = Math.floor(this.now() / 1000);
    const claims = {
      ...(clientId === undefined ? {} : { client_id: clientId, gen: generation }),
      ...(sessionId === undefined ? {} : { sid: sessionId }),
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: this.key.kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subjectOf(principal))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .sign(this.key.privateKey);
    return { access_token: token, token_type: 'Bearer', expires_in: lifetime };
  }

  /** The caller of an `Authorization` header, or a 401 problem saying what is wrong. */
  async verify(authorization: string | undefined): Promise<Principal> {
    const credential = bearerCredentialOf(authorization);
    if ('missing' in credential) throw missingToken();
    if ('malformed' in credential) throw invalidToken(notValid);
    const principal = await this.signed(credential.token);
    await this.checkGeneration(principal);
    await this.checkSession(principal);
    return principal;
  }

  /** The principal of a token with a valid signature and claims that has not expired. */
  private async signed(token: string): Promise<Principal> {
    const now = this.now();
    const known = this.verified.get(token);
    // Expired as jose counts it (exp <= now, in whole seconds): dropped, and the full check below says why.
    if (known && known.exp > Math.floor(now / 1000)) return known.principal;
    this.verified.delete(token);
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.key.publicKey, {
        algorithms: ['EdDSA'],
        issuer,
        audience,
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp', 'iat'],
        currentDate: new Date(now),
      });
      const owner = protectedHeader.kid === this.key.kid ? principalOf(payload.sub ?? '') : undefined;
      if (!owner) throw invalidToken('The access token was not issued by this service.');
      const { client_id: clientId, gen: generation, sid: sessionId } = payload;
      let principal: Principal = owner;
      if (clientId !== undefined) {
        // A token naming its client must name the generation too (tokens from before generations do not).
        if (typeof clientId !== 'string' || !Number.isSafeInteger(generation) || (generation as number) < 1) throw invalidToken(notValid);
        principal = { ...owner, clientId, generation: generation as number };
      }
      if (sessionId !== undefined) {
        if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 64) throw invalidToken(notValid);
        principal = { ...principal, sessionId };
      }
      if (this.verified.size >= verifiedCacheSize) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { principal, exp: payload.exp! });
      return principal;
    } catch (err) {
      if (err instanceof Problem) throw err;
      throw invalidToken(err instanceof errors.JWTExpired ? expired : notValid);
    }
  }

  /** Refuses a token whose client was revoked, changed owner, or rotated its secret after the token was issued.
   * Every token the token operations issue names its client; one that names none (only in-process issuance
   * does that, for tests and tools) belongs to no secret, so no rotation can end it. */
  private async checkGeneration(principal: Principal): Promise<void> {
    if (principal.clientId === undefined) return;
    const client = await this.clients.current(principal.clientId).catch((err: unknown) => {
      // The store failed, not the caller: a status of 500 makes the validator answer (and log) it as ours, not 401.
      throw Object.assign(new Error(`Reading the client's generation failed: ${(err as Error).message}`, { cause: err }), { status: 500 });
    });
    const ownerId = principal.kind === 'merchant' ? principal.merchantId : principal.partnerId;
    const generation = principal.generation ?? 0;
    const current =
      client?.ownerKind === principal.kind &&
      client.ownerId === ownerId &&
      (client.generation === generation ||
        // A roll's overlap: the previous secret's tokens work until it ends, to the millisecond whatever the cache's age.
        (generation === client.generation - 1 && client.previousUntil !== null && client.previousUntil > this.now()));
    if (!current) throw invalidToken(revoked);
  }

  /** Refuses a token minted for a console session once the session ended (sign-out, idle or absolute expiry). */
  private async checkSession(principal: Principal): Promise<void> {
    if (principal.sessionId === undefined) return;
    const live = await (this.sessions?.isLive(principal.sessionId) ?? Promise.resolve(false)).catch((err: unknown) => {
      throw Object.assign(new Error(`Reading the console session failed: ${(err as Error).message}`, { cause: err }), { status: 500 });
    });
    if (!live) throw invalidToken(sessionEnded);
  }
}
