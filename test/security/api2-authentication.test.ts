// OWASP API2:2023 Broken Authentication. Every secured operation of every group refuses a missing token
// and every kind of forged or unusable token (built with jose) with 401, a Bearer challenge and
// `invalid_token`; each of the three token operations refuses wrong credentials alike without saying which
// part was wrong; and failed token requests are limited: 10 per Client ID from one address, 100 per address,
// then 429 with Retry-After, even for the right secret from there; never per Client ID alone, so the right
// secret from another address still works (requests from 127.0.0.2 are another client address).
import { SignJWT, UnsecuredJWT, exportJWK, exportSPKI, generateKeyPair, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../support/service.js';
import { requestFrom } from '../support/source-address.js';
import { servedOperations, type ServedOperation } from '../support/operations.js';
import { fill, problemType, send } from '../support/requests.js';
import { useService } from '../support/use-service.js';

const issuer = 'https://auth.payouts.example';
const audience = 'payout-service';

const service = useService(':memory:');
let merchant: { merchantId: number; clientId: string; clientSecret: string };
let partner: { partnerId: number; clientId: string; clientSecret: string };
/** The service's own signing key, read from its store the way an insider with a database dump could. */
let serviceKey: { kid: string; privateJwk: JWK; publicJwk: JWK };

beforeAll(async () => {
  merchant = await service.services.credentials.createMerchant('Acme');
  partner = await service.services.credentials.createPartner('Partner');
  await service.services.credentials.link(partner.partnerId, merchant.merchantId);
  const row = await service.services.store.db.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow();
  serviceKey = { kid: row.kid, privateJwk: JSON.parse(row.private_jwk) as JWK, publicJwk: JSON.parse(row.public_jwk) as JWK };
});

// The bearer-token operations: the console's take a session cookie instead (test/server/console-sessions.test.ts).
const secured = servedOperations.filter((o) => o.caller !== 'none' && o.caller !== 'console');
const subjectFor = (o: ServedOperation) => (o.caller === 'merchant' ? `merchant:${merchant.merchantId}` : `partner:${partner.partnerId}`);

interface Forgery {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  issuer?: string;
  audience?: string;
  /** Seconds from now. */
  expiresIn?: number;
  issuedAt?: number;
  /** Which key signs: the service's own (its kid unless header says otherwise) or a fresh one. */
  key?: 'service' | 'foreign';
}

/** A token signed as described; with the service's key and no changes, a token the service accepts. */
async function token(subject: string, f: Forgery = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const privateKey =
    f.key === 'foreign' ? (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey : await importJWK(serviceKey.privateJwk, 'EdDSA');
  return new SignJWT({ ...f.claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: serviceKey.kid, typ: 'at+jwt', ...f.header } as { alg: string })
    .setIssuer(f.issuer ?? issuer)
    .setAudience(f.audience ?? audience)
    .setSubject(subject)
    .setIssuedAt(f.issuedAt ?? now)
    .setExpirationTime(now + (f.expiresIn ?? 3600))
    .sign(privateKey);
}

/** Keys an attacker makes once: generating RSA keys per request would only slow the suite down. */
const attackerKeys = { rsa: generateKeyPair('RS256'), ec: generateKeyPair('ES256') };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Every way a bearer token can be wrong, each built for the caller kind of the operation. */
const badTokens: [string, (o: ServedOperation) => Promise<string | undefined>][] = [
  ['no Authorization header', async () => undefined],
  ['an empty bearer', async () => ''],
  [
    'alg none',
    async (o) =>
      new UnsecuredJWT({}).setIssuer(issuer).setAudience(audience).setSubject(subjectFor(o)).setIssuedAt().setExpirationTime('1h').encode(),
  ],
  [
    'alg none with the service kid and typ',
    async (o) =>
      `${b64({ alg: 'none', kid: serviceKey.kid, typ: 'at+jwt' })}.${b64({ iss: issuer, aud: audience, sub: subjectFor(o), iat: 1, exp: 9_999_999_999 })}.`,
  ],
  [
    'HS256 keyed with the public key (algorithm confusion)',
    async (o) => {
      const spki = await exportSPKI((await importJWK(serviceKey.publicJwk, 'EdDSA')) as Parameters<typeof exportSPKI>[0]);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: serviceKey.kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subjectFor(o))
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(spki));
    },
  ],
  [
    'HS256 keyed with the public JWK x value',
    async (o) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: serviceKey.kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subjectFor(o))
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(Buffer.from(serviceKey.publicJwk.x!, 'base64url')),
  ],
  [
    'ES256 under the service kid (wrong algorithm)',
    async (o) => {
      const { privateKey } = await attackerKeys.ec;
      return new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: serviceKey.kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subjectFor(o))
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
    },
  ],
  [
    'RS256 with the key embedded in the header (jwk injection)',
    async (o) => {
      const { privateKey, publicKey } = await attackerKeys.rsa;
      return new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: serviceKey.kid, typ: 'at+jwt', jwk: await exportJWK(publicKey) })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subjectFor(o))
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
    },
  ],
  ['EdDSA signed by another key under the service kid', (o) => token(subjectFor(o), { key: 'foreign' })],
  ['expired', (o) => token(subjectFor(o), { expiresIn: -10, issuedAt: Math.floor(Date.now() / 1000) - 3700 })],
  [
    'a tampered payload (subject changed after signing)',
    async (o) => {
      const [h, p, s] = (await token(subjectFor(o))).split('.');
      const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
      return `${h}.${b64({ ...payload, sub: o.caller === 'merchant' ? 'merchant:999' : 'partner:999' })}.${s}`;
    },
  ],
  [
    'a tampered header (kid changed after signing)',
    async (o) => {
      const [h, p, s] = (await token(subjectFor(o))).split('.');
      return `${b64({ ...JSON.parse(Buffer.from(h!, 'base64url').toString()), kid: 'other' })}.${p}.${s}`;
    },
  ],
  ['a truncated signature', async (o) => (await token(subjectFor(o))).slice(0, -6)],
  ['the wrong issuer', (o) => token(subjectFor(o), { issuer: 'https://evil.example' })],
  ['the wrong audience', (o) => token(subjectFor(o), { audience: 'another-service' })],
  ['no kid', (o) => token(subjectFor(o), { header: { kid: undefined } })],
  ['an unknown kid', (o) => token(subjectFor(o), { header: { kid: 'rotated-away' } })],
  ['the wrong typ', (o) => token(subjectFor(o), { header: { typ: 'JWT' } })],
  ['a subject that names no caller', () => token('admin')],
];

describe('every secured operation refuses bad tokens', () => {
  it('covers every operation of every group', () => {
    expect(new Set(secured.map((o) => o.group))).toEqual(new Set(['merchant', 'platform', 'partner', 'banking', 'counterparty']));
    expect(secured.length).toBeGreaterThanOrEqual(40);
  });

  it('accepts the control: a token the test signs with the service key, for every operation', async () => {
    for (const o of secured) {
      const r = await service.send(o.method.toUpperCase(), fill(o.url), {
        token: await token(subjectFor(o)),
        ...(o.bodySchema ? { body: {} } : {}),
      });
      expect([401, 403], `${o.group} ${o.operationId}: ${r.text}`).not.toContain(r.status);
      expect(r.body?.detail ?? '', 'the operation is mounted').not.toMatch(/^No operation at/);
    }
  });

  it.each(badTokens)('refuses %s with 401 invalid_token and a Bearer challenge', async (_, make) => {
    for (const o of secured) {
      const bad = await make(o);
      const r = await service.send(o.method.toUpperCase(), fill(o.url), {
        ...(bad === undefined ? {} : { headers: { authorization: `Bearer ${bad}` } }),
        ...(o.bodySchema ? { body: {} } : {}),
      });
      const where = `${o.group} ${o.operationId}`;
      expect(r.status, `${where}: ${r.text}`).toBe(401);
      expect(r.headers.get('www-authenticate'), where).toMatch(/^Bearer realm="payouts"/);
      expect(r.headers.get('content-type'), where).toContain('application/problem+json');
      expect(r.body, where).toMatchObject({ type: problemType('unauthorized'), status: 401, error: 'invalid_token' });
    }
  });

  it('refuses other schemes and malformed headers', async () => {
    for (const authorization of [
      `Basic ${Buffer.from(`${merchant.clientId}:${merchant.clientSecret}`).toString('base64')}`,
      'Bearer',
      'bearer  x.y.z',
      `Token ${await token(`merchant:${merchant.merchantId}`)}`,
    ]) {
      const r = await service.send('GET', '/v1/webhooks', { headers: { authorization } });
      expect(r.status, authorization).toBe(401);
    }
  });
});

/** The three token operations, with a request body for given credentials. */
const tokenEndpoints = [
  {
    path: '/oauth/token',
    kind: 'merchant',
    body: (id: string, secret: string) => ({ client_id: id, client_secret: secret, grant_type: 'client_credentials' }),
  },
  { path: '/finance/v1/generate-token', kind: 'partner', body: (id: string, secret: string) => ({ clientId: id, clientSecret: secret }) },
  { path: '/api/v1/generate-token', kind: 'partner', body: (id: string, secret: string) => ({ clientId: id, clientSecret: secret }) },
] as const;

describe('the token operations', () => {
  const own = (kind: 'merchant' | 'partner') => (kind === 'merchant' ? merchant : partner);
  const other = (kind: 'merchant' | 'partner') => (kind === 'merchant' ? partner : merchant);

  it.each(tokenEndpoints)(
    '$path refuses a wrong secret, an unknown client and the other kind of client alike (401 invalid_client)',
    async (t) => {
      const mine = own(t.kind);
      const ok = await service.send('POST', t.path, { body: t.body(mine.clientId, mine.clientSecret) });
      expect(ok.status).toBe(200);
      const refusals = [
        t.body(mine.clientId, `${mine.clientSecret.slice(0, -1)}x`),
        t.body(mine.clientId, ''.padEnd(mine.clientSecret.length, 'a')),
        t.body(`${mine.clientId.slice(0, 7)}0000000000000000`, mine.clientSecret),
        t.body(other(t.kind).clientId, other(t.kind).clientSecret),
      ];
      const details = new Set<string>();
      for (const body of refusals) {
        const r = await service.send('POST', t.path, { body });
        expect(r.status, JSON.stringify(body)).toBe(401);
        expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
        expect(r.body).toMatchObject({ type: problemType('invalid-client'), error: 'invalid_client' });
        expect(r.text).not.toContain('access_token');
        details.add(r.body.detail);
      }
      expect(details.size, 'one message for every wrong credential').toBe(1);
    },
  );

  it.each(tokenEndpoints)(
    '$path limits failures per Client ID and address: the 11th attempt is 429 with Retry-After, even with the right secret',
    async (t) => {
      const victim =
        t.kind === 'merchant'
          ? await service.services.credentials.createMerchant(`Victim ${t.path}`)
          : await service.services.credentials.createPartner(`Victim ${t.path}`);
      for (let i = 0; i < 10; i++) {
        const r = await service.send('POST', t.path, { body: t.body(victim.clientId, `sk_guess_${i}`) });
        expect(r.status).toBe(401);
      }
      const limited = await service.send('POST', t.path, { body: t.body(victim.clientId, victim.clientSecret) });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body).toMatchObject({ type: problemType('rate-limited'), status: 429 });
      expect(limited.text).not.toContain('access_token');
      // Another client from the same address is not locked out by the victim's limit.
      const mine = own(t.kind);
      expect((await service.send('POST', t.path, { body: t.body(mine.clientId, mine.clientSecret) })).status).toBe(200);
      // Nor is the victim from another address: knowing a Client ID does not let anyone lock its owner out.
      const elsewhere = await requestFrom('127.0.0.2', service.baseUrl + t.path, { body: t.body(victim.clientId, victim.clientSecret) });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body.access_token).toEqual(expect.any(String));
    },
  );
});

describe('token requests sprayed from one address', () => {
  it('are refused after 100 failures across clients and across the three token operations (429, Retry-After)', async () => {
    const fresh = await startService(':memory:');
    try {
      const m = await fresh.services.credentials.createMerchant('Late');
      for (let i = 0; i < 100; i++) {
        const t = tokenEndpoints[i % 3]!;
        const r = await send(fresh.baseUrl, 'POST', t.path, {
          body: t.body(`${t.kind === 'merchant' ? 'mch' : 'prt'}_cl_${String(i).padStart(16, '0')}`, 'sk_spray'),
        });
        expect(r.status).toBe(401);
      }
      const limited = await send(fresh.baseUrl, 'POST', '/oauth/token', { body: tokenEndpoints[0].body(m.clientId, m.clientSecret) });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.type).toBe(problemType('rate-limited'));
      // The limit is the address's: the same client from another address gets its token.
      expect(
        (await requestFrom('127.0.0.2', `${fresh.baseUrl}/oauth/token`, { body: tokenEndpoints[0].body(m.clientId, m.clientSecret) }))
          .status,
      ).toBe(200);
    } finally {
      await fresh.stop();
    }
  });
});
