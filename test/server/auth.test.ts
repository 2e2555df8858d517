// The token issuer and token checks over real HTTP: the seed's JSON body and the RFC 6749 form, failures
// that reveal nothing, the failed-attempt limit, and every kind of bad token answered 401 with a challenge.
// The service's clock is injected, so that a token expires without waiting for it.
import { SignJWT, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { startService } from '../support/service.js';
import { useService } from '../support/use-service.js';

/** A response body, for asserting on. */
const json = async (r: Response): Promise<Record<string, any>> => (await r.json()) as Record<string, any>;

let offset = 0;
const now = () => Date.now() + offset;
const service = useService(':memory:', {}, { now });
let merchant: { merchantId: number; clientId: string; clientSecret: string };

beforeAll(async () => {
  merchant = await service.services.credentials.createMerchant('Acme');
});

const tokenRequest = (body: Record<string, string>, form = false) =>
  fetch(`${service.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
  });

describe('POST /oauth/token', () => {
  it.each([false, true])('issues a one-hour bearer JWT for the client credentials (form: %s), never cached', async (form) => {
    const response = await tokenRequest(
      { client_id: merchant.clientId, client_secret: merchant.clientSecret, grant_type: 'client_credentials' },
      form,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await json(response);
    expect(body).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), token_type: 'Bearer', expires_in: 3600 });
    const [header, payload] = body.access_token
      .split('.')
      .slice(0, 2)
      .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'EdDSA', kid: expect.any(String) });
    expect(payload).toMatchObject({ sub: `merchant:${merchant.merchantId}`, aud: 'payout-service', iss: 'https://auth.payouts.example' });
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it('refuses a wrong secret and an unknown client alike, with invalid_client and a challenge', async () => {
    const wrong = await tokenRequest({ client_id: merchant.clientId, client_secret: 'sk_wrong', grant_type: 'client_credentials' });
    const unknown = await tokenRequest({
      client_id: 'mch_cl_0000000000000000',
      client_secret: merchant.clientSecret,
      grant_type: 'client_credentials',
    });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await json(response)).toMatchObject({
        type: 'https://payouts.example/problems/invalid-client',
        error: 'invalid_client',
        detail: 'The Client ID or Client Secret is wrong, or the credentials were revoked.',
      });
    }
  });

  it('refuses another grant type (400) and a missing secret, which is no client authentication (401 invalid_client)', async () => {
    const grant = await tokenRequest({ client_id: merchant.clientId, client_secret: merchant.clientSecret, grant_type: 'password' });
    expect(grant.status).toBe(400);
    const missing = await tokenRequest({ client_id: merchant.clientId, grant_type: 'client_credentials' });
    expect(missing.status).toBe(401);
    expect(await json(missing)).toMatchObject({ error: 'invalid_client', type: 'https://payouts.example/problems/invalid-client' });
  });

  it('rate limits repeated failures for a client from one address (429 with Retry-After), even with the right secret then', async () => {
    const victim = await service.services.credentials.createMerchant('Victim');
    for (let i = 0; i < 10; i++)
      expect(
        (await tokenRequest({ client_id: victim.clientId, client_secret: `sk_guess_${i}`, grant_type: 'client_credentials' })).status,
      ).toBe(401);
    const limited = await tokenRequest({
      client_id: victim.clientId,
      client_secret: victim.clientSecret,
      grant_type: 'client_credentials',
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(limited)).type).toBe('https://payouts.example/problems/rate-limited');
  });

  it('stops accepting a secret once it is rotated', async () => {
    const m = await service.services.credentials.createMerchant('Rotating');
    const rotated = await service.services.credentials.rotateSecret(m.clientId);
    expect((await tokenRequest({ client_id: m.clientId, client_secret: m.clientSecret, grant_type: 'client_credentials' })).status).toBe(
      401,
    );
    expect(
      (await tokenRequest({ client_id: m.clientId, client_secret: rotated!.clientSecret, grant_type: 'client_credentials' })).status,
    ).toBe(200);
  });
});

describe('bearer tokens', () => {
  const call = (authorization?: string) => fetch(`${service.baseUrl}/v1/webhooks`, { headers: authorization ? { authorization } : {} });
  const sign = async (
    claims: Record<string, unknown>,
    options: { alg?: string; kid?: string; exp?: string | number; key?: Parameters<SignJWT['sign']>[0] } = {},
  ) => {
    const key = options.key ?? (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: options.alg ?? 'EdDSA', kid: options.kid ?? 'forged', typ: 'at+jwt' })
      .setIssuer('https://auth.payouts.example')
      .setAudience('payout-service')
      .setSubject(`merchant:${merchant.merchantId}`)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? '1h')
      .sign(key);
  };
  const valid = async () =>
    (
      await json(
        await tokenRequest({ client_id: merchant.clientId, client_secret: merchant.clientSecret, grant_type: 'client_credentials' }),
      )
    ).access_token as string;

  it('accepts a token it issued', async () => {
    expect((await call(`Bearer ${await valid()}`)).status).toBe(200);
  });

  it.each([
    ['no Authorization header', async () => undefined],
    ['a Basic credential', async () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a malformed token', async () => 'Bearer not-a-jwt'],
    [
      'alg none',
      async () =>
        `Bearer ${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: `merchant:${merchant.merchantId}` })).toString('base64url')}.`,
    ],
    ['a token signed by another key', async () => `Bearer ${await sign({})}`],
    ['an HS256 token', async () => `Bearer ${await sign({}, { alg: 'HS256', key: new TextEncoder().encode('x'.repeat(32)) })}`],
    [
      'a tampered payload',
      async () => {
        const [h, , s] = (await valid()).split('.');
        return `Bearer ${h}.${Buffer.from(JSON.stringify({ sub: 'merchant:999', aud: 'payout-service', iss: 'https://auth.payouts.example', exp: 9999999999, iat: 1 })).toString('base64url')}.${s}`;
      },
    ],
  ])('refuses %s with 401 and a Bearer challenge', async (_, make) => {
    const response = await call(await make());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="payouts"/);
    expect(await json(response)).toMatchObject({
      type: 'https://payouts.example/problems/unauthorized',
      status: 401,
      error: 'invalid_token',
    });
  });

  it('refuses an expired token, saying so', async () => {
    const key = (service.services.tokens as unknown as { key: { privateKey: Parameters<SignJWT['sign']>[0]; kid: string } }).key;
    const expired = await sign({}, { key: key.privateKey, kid: key.kid, exp: Math.floor(now() / 1000) - 10 });
    const response = await call(`Bearer ${expired}`);
    expect(response.status).toBe(401);
    expect((await json(response)).detail).toContain('expired');
  });

  it('stops accepting a token at its expiry even after it was verified (and cached) before', async () => {
    const key = (service.services.tokens as unknown as { key: { privateKey: Parameters<SignJWT['sign']>[0]; kid: string } }).key;
    const exp = Math.floor(now() / 1000) + 2;
    const token = await sign({}, { key: key.privateKey, kid: key.kid, exp });
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    offset += exp * 1000 - now() + 50; // the service's clock passes exp
    const response = await call(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect((await json(response)).detail).toContain('expired');
  });

  it('the client renews the token after a 401 (signing key rotated) and retries once', async () => {
    const client = createMerchantClient({
      baseUrl: service.baseUrl,
      credentials: { clientId: merchant.clientId, clientSecret: merchant.clientSecret },
    });
    expect(await unwrap(client.GET('/v1/webhooks'))).toEqual([]);
    const { TokenIssuer } = await import('../../server/domain/auth/token-issuer.js');
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const previous = service.services.tokens;
    service.services.tokens = new TokenIssuer({ kid: 'rotated', privateKey, publicKey }, service.services.credentials.generations);
    try {
      expect(await unwrap(client.GET('/v1/webhooks'))).toEqual([]);
    } finally {
      service.services.tokens = previous;
    }
  });
});

describe('token requests sprayed from one address', () => {
  it('are refused after 100 failures across clients (429)', async () => {
    const own = await startService(':memory:');
    try {
      for (let i = 0; i < 100; i++) {
        const r = await fetch(`${own.baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_id: `mch_cl_${String(i).padStart(16, '0')}`,
            client_secret: 'sk_x',
            grant_type: 'client_credentials',
          }),
        });
        expect(r.status).toBe(401);
      }
      const m = await own.services.credentials.createMerchant('Late');
      const r = await fetch(`${own.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: m.clientId, client_secret: m.clientSecret, grant_type: 'client_credentials' }),
      });
      expect(r.status).toBe(429);
    } finally {
      await own.stop();
    }
  });
});
