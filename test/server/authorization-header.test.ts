// The Authorization header over real HTTP on every group (issue 10): the scheme is case-insensitive (RFC 9110
// §11.1) and may be followed by several spaces (RFC 6750 §2.1); no token answers a challenge without an error
// code, and a token that cannot be used (malformed, expired, revoked by a secret rotation) answers a detail
// saying so and `error="invalid_token"` (RFC 6750 §3). The token clock is the service's injectable one.
import { beforeAll, describe, expect, it } from 'vitest';
import { bearerCredentialOf } from '../../server/domain/auth/bearer-header.js';
import { tokenLifetimeSeconds } from '../../server/domain/auth/token-issuer.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const json = { 'content-type': 'application/json' };
const unauthorized = 'https://payouts.example/problems/unauthorized';

/** One operation of each group; any answer but 401 and 403 means the token was accepted. */
const operations = [
  { group: 'merchant (A)', caller: 'merchant', method: 'GET', path: '/v1/payouts' },
  { group: 'platform (B)', caller: 'merchant', method: 'GET', path: '/payouts/v1/payouts' },
  { group: 'banking (D)', caller: 'merchant', method: 'GET', path: '/finance/api/v1/business/999' },
  { group: 'partner (C)', caller: 'partner', method: 'GET', path: '/finance/v1/partner/list' },
  { group: 'counterparty (E)', caller: 'partner', method: 'POST', path: '/finance/v1/search_transactions' },
] as const;

describe('bearerCredentialOf', () => {
  it.each([
    ['Bearer abc.def.ghi', { token: 'abc.def.ghi' }],
    ['bearer abc.def.ghi', { token: 'abc.def.ghi' }],
    ['BEARER abc.def.ghi', { token: 'abc.def.ghi' }],
    ['Bearer    abc.def.ghi', { token: 'abc.def.ghi' }],
    ['Bearer abc+/=', { token: 'abc+/=' }],
    [undefined, { missing: true }],
    ['', { missing: true }],
    ['Bearer', { missing: true }],
    ['Basic dXNlcjpwYXNz', { missing: true }],
    ['Bearerabc.def.ghi', { missing: true }],
    ['Bearer\tabc.def.ghi', { malformed: true }],
    ['Bearer abc def', { malformed: true }],
    ['Bearer abc"def', { malformed: true }],
    ['Bearer a=b', { malformed: true }],
  ])('%j → %j', (header, expected) => {
    expect(bearerCredentialOf(header)).toEqual(expected);
  });
});

describe.each(stores)('the Authorization header on $name', (kind) => {
  const service = useService(kind, {}, { workers: false, now: () => Date.now() + offset });
  let offset = 0;
  let clients: Record<'merchant' | 'partner', { clientId: string; clientSecret: string }>;

  beforeAll(async () => {
    const { credentials } = service.services;
    clients = { merchant: await credentials.createMerchant('Acme'), partner: await credentials.createPartner('Partner') };
  });

  const tokenFor = async (caller: 'merchant' | 'partner'): Promise<string> => {
    const { clientId, clientSecret } = clients[caller];
    const [path, body] =
      caller === 'merchant'
        ? ['/oauth/token', { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }]
        : ['/finance/v1/generate-token', { clientId, clientSecret }];
    const response = await fetch(service.baseUrl + path, { method: 'POST', headers: json, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const call = async (o: (typeof operations)[number], authorization: string | undefined) => {
    const post = o.method === 'POST';
    const response = await fetch(service.baseUrl + o.path, {
      method: o.method,
      headers: { ...(authorization === undefined ? {} : { authorization }), ...(post ? json : {}) },
      ...(post ? { body: '{}' } : {}),
    });
    const body = (await response.json()) as Record<string, any>;
    return { status: response.status, challenge: response.headers.get('www-authenticate'), body };
  };
  const expectInvalidToken = (answer: Awaited<ReturnType<typeof call>>, detail: RegExp, where: string) => {
    expect(answer.status, where).toBe(401);
    expect(answer.body, where).toMatchObject({ type: unauthorized, status: 401, error: 'invalid_token' });
    expect(answer.body.detail, where).toMatch(detail);
    expect(answer.challenge, where).toMatch(/^Bearer realm="payouts", error="invalid_token", error_description="[^"\\]+"$/);
    expect(answer.challenge, where).toContain(`error_description="${answer.body.detail}"`);
  };

  it('accepts the scheme in any case and after several spaces, on every group', async () => {
    const tokens = { merchant: await tokenFor('merchant'), partner: await tokenFor('partner') };
    for (const o of operations) {
      for (const spelling of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        for (const gap of [' ', '   ']) {
          const answer = await call(o, `${spelling}${gap}${tokens[o.caller]}`);
          expect([401, 403], `${o.group}: '${spelling}${gap}<token>' → ${JSON.stringify(answer.body)}`).not.toContain(answer.status);
        }
      }
    }
  });

  it('answers no bearer token with a challenge that carries no error code, and a detail saying to send one', async () => {
    for (const o of operations) {
      for (const authorization of [undefined, 'Bearer', `Basic ${Buffer.from('a:b').toString('base64')}`]) {
        const answer = await call(o, authorization);
        const where = `${o.group} ${authorization}`;
        expect(answer.status, where).toBe(401);
        expect(answer.challenge, where).toBe('Bearer realm="payouts"');
        expect(answer.body.detail, where).toBe("Send an access token in the Authorization header as 'Bearer <token>'.");
      }
    }
  });

  it('answers a malformed token as not valid, with error="invalid_token"', async () => {
    const token = await tokenFor('merchant');
    for (const o of operations) {
      const malformed = ['Bearer not-a-jwt', 'bearer x.y.z', `Bearer\t${token}`, `Bearer ${token} extra`, `Bearer ${token.slice(0, -4)}`];
      for (const authorization of malformed) {
        expectInvalidToken(await call(o, authorization), /^The access token is not valid/, `${o.group} ${authorization.slice(0, 20)}`);
      }
    }
  });

  it('answers an expired token as expired, with error="invalid_token", after it was accepted (and cached) before', async () => {
    const tokens = { merchant: await tokenFor('merchant'), partner: await tokenFor('partner') };
    for (const o of operations) expect([401, 403]).not.toContain((await call(o, `bearer ${tokens[o.caller]}`)).status);
    offset += tokenLifetimeSeconds * 1000; // the service's clock reaches the tokens' exp
    for (const o of operations) expectInvalidToken(await call(o, `bearer ${tokens[o.caller]}`), /^The access token expired/, o.group);
    const fresh = { merchant: await tokenFor('merchant'), partner: await tokenFor('partner') };
    for (const o of operations) expect([401, 403]).not.toContain((await call(o, `Bearer ${fresh[o.caller]}`)).status);
  });

  it('answers a token of a rotated secret as revoked, with error="invalid_token"', async () => {
    const old = { merchant: await tokenFor('merchant'), partner: await tokenFor('partner') };
    for (const caller of ['merchant', 'partner'] as const) {
      const rotated = await service.services.credentials.rotateSecret(clients[caller].clientId);
      clients[caller] = rotated!;
    }
    for (const o of operations) expectInvalidToken(await call(o, `BEARER ${old[o.caller]}`), /^The access token was revoked/, o.group);
    const fresh = { merchant: await tokenFor('merchant'), partner: await tokenFor('partner') };
    for (const o of operations) expect([401, 403]).not.toContain((await call(o, `bearer ${fresh[o.caller]}`)).status);
  });
});
