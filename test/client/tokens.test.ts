// The client's token handling against the real service over HTTP: a token is fetched once and cached,
// renewed before it expires, fetched once however many calls need it at the same time, and renewed once
// after a 401. Requests go through a counting wrapper around the real fetch; nothing is mocked.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient, createPlatformClient } from '../../client/create-clients.js';
import { ApiProblemError, unwrap } from '../../client/problem-error.js';
import { TokenProvider } from '../../client/token-provider.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let credentials: { clientId: string; clientSecret: string };

beforeAll(async () => {
  credentials = await service.services.credentials.createMerchant('Acme');
});

function countingFetch() {
  const counts = { token: 0, api: 0, requestIds: new Set<string>() };
  const fetchFn = async (request: Request) => {
    if (new URL(request.url).pathname === '/oauth/token') counts.token++;
    else counts.api++;
    counts.requestIds.add(request.headers.get('x-request-id') ?? '');
    return globalThis.fetch(request);
  };
  return { counts, fetch: fetchFn };
}

describe('client tokens', () => {
  it('fetches a token once and reuses it', async () => {
    const { counts, fetch } = countingFetch();
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials, fetch });
    for (let i = 0; i < 5; i++) await unwrap(client.GET('/v1/webhooks'));
    expect(counts).toMatchObject({ token: 1, api: 5 });
  });

  it('renews the token shortly before it expires', async () => {
    let now = Date.now();
    const { counts, fetch } = countingFetch();
    const client = createMerchantClient({
      baseUrl: service.baseUrl,
      credentials,
      fetch,
      tokenOptions: { now: () => now, renewBeforeSeconds: 60 },
    });
    await unwrap(client.GET('/v1/webhooks'));
    now += 3_500_000; // 58 min 20 s: still more than a minute left
    await unwrap(client.GET('/v1/webhooks'));
    expect(counts.token).toBe(1);
    now += 50_000; // 59 min 10 s: inside the last minute
    await unwrap(client.GET('/v1/webhooks'));
    expect(counts.token).toBe(2);
  });

  it('fetches one token for 20 concurrent first calls (single flight)', async () => {
    const { counts, fetch } = countingFetch();
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials, fetch });
    const results = await Promise.all(Array.from({ length: 20 }, () => unwrap(client.GET('/v1/webhooks'))));
    expect(results).toHaveLength(20);
    expect(counts).toMatchObject({ token: 1, api: 20 });
  });

  it('renews once and retries once after a 401, with every waiting call sharing the new token', async () => {
    const { counts, fetch } = countingFetch();
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials, fetch });
    await unwrap(client.GET('/v1/webhooks'));
    const { TokenIssuer } = await import('../../server/domain/auth/token-issuer.js');
    const { generateKeyPair } = await import('jose');
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const previous = service.services.tokens;
    service.services.tokens = new TokenIssuer({ kid: 'rotated', privateKey, publicKey }, service.services.credentials.generations);
    try {
      await Promise.all(Array.from({ length: 20 }, () => unwrap(client.GET('/v1/webhooks'))));
      expect(counts.token).toBe(2);
      expect(counts.api).toBe(1 + 20 + 20);
    } finally {
      service.services.tokens = previous;
    }
  });

  it('does not loop when the renewed token is refused too: the 401 surfaces as a problem', async () => {
    const { counts, fetch } = countingFetch();
    const client = createMerchantClient({ baseUrl: service.baseUrl, token: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln', fetch });
    const error = await unwrap(client.GET('/v1/webhooks')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblemError);
    expect(error).toMatchObject({ status: 401, kind: 'unauthorized', error: 'invalid_token' });
    expect(counts.api).toBe(1);
  });

  it('sends a request id with every request, and a caller-supplied token as is', async () => {
    const token = await service.token({ kind: 'merchant', merchantId: 1 });
    const { counts, fetch } = countingFetch();
    const client = createPlatformClient({ baseUrl: `${service.baseUrl}/payouts`, token: () => token, fetch });
    await unwrap(client.GET('/v1/payouts'));
    await unwrap(client.GET('/v1/payouts'));
    expect(counts.token).toBe(0);
    expect([...counts.requestIds].every((id) => /^req_[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(counts.requestIds.size).toBe(2);
  });

  it("takes a TokenProvider of the caller's as its token: cached, and renewed once after a 401", async () => {
    // A browser app's own backend minting tokens (the console's session): here, the service's issuer called directly.
    let issued = 0;
    let refuse = true;
    const tokens = new TokenProvider(async () => {
      issued++;
      if (refuse) {
        refuse = false;
        return { access_token: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln', expires_in: 900 }; // a token the service refuses
      }
      return { access_token: await service.token({ kind: 'merchant', merchantId: 1 }), expires_in: 900 };
    });
    const { counts, fetch } = countingFetch();
    const client = createMerchantClient({ baseUrl: service.baseUrl, token: tokens, fetch });
    await unwrap(client.GET('/v1/webhooks'));
    await unwrap(client.GET('/v1/webhooks'));
    expect(issued).toBe(2);
    expect(counts).toMatchObject({ token: 0, api: 3 });
  });

  it('surfaces wrong credentials as a typed problem error', async () => {
    const client = createMerchantClient({
      baseUrl: service.baseUrl,
      credentials: { clientId: credentials.clientId, clientSecret: 'sk_wrong' },
    });
    await expect(unwrap(client.GET('/v1/webhooks'))).rejects.toMatchObject({
      status: 401,
      kind: 'invalid-client',
      error: 'invalid_client',
    });
  });
});

describe('problem errors', () => {
  it('carry status, type, detail and the fields at fault', async () => {
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials });
    const error = (await unwrap(
      client.POST('/v1/payees', {
        // @ts-expect-error refused by the service, and by the types (a conditional requirement)
        body: {
          payeeType: 'business',
          name: 'N',
          EmailAddress: 'a@b.co',
          address: { addressLine: '', state: '', city: '', country: '', postalCode: '' },
        },
      }),
    ).catch((e: unknown) => e)) as ApiProblemError;
    expect(error).toBeInstanceOf(ApiProblemError);
    expect(error.status).toBe(400);
    expect(error.type).toBe('https://payouts.example/problems/validation-error');
    expect(error.kind).toBe('validation-error');
    expect(error.detail).toMatch(/invalid field/);
    expect(error.requestId).toMatch(/^req_/);
    expect(error.errors.map((e) => e.pointer).sort()).toEqual(['#/phoneNumber', '#/taxId']);
  });
});
