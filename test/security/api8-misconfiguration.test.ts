// OWASP API8:2023 Security Misconfiguration: every kind of answer the service gives (success, each 4xx,
// a real 500 from a broken store, docs, health) carries no X-Powered-By, no server banner, nosniff, and
// CORS without credentials; every failure is application/problem+json with no stack trace, file path, SQL
// or driver message in it, including unknown paths under every prefix with every method; no answer (token
// responses included) may be cached; TRACE (405), method-override headers, malformed request ids and path tricks get nowhere.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../support/service.js';
import { problemType, send, type Answer } from '../support/requests.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:', { rateLimitPerMinute: 100_000 });
let merchantToken: string;
let partnerToken: string;
let clientId: string;
let clientSecret: string;

beforeAll(async () => {
  const m = await service.services.credentials.createMerchant('Acme');
  const p = await service.services.credentials.createPartner('Partner');
  ({ clientId, clientSecret } = m);
  merchantToken = await service.token({ kind: 'merchant', merchantId: m.merchantId });
  partnerToken = await service.token({ kind: 'partner', partnerId: p.partnerId });
});

/** What leaks from a misconfigured server: stack frames, source paths, SQL and driver messages. */
const leaks = [
  /\bat .*\.(ts|js|mjs):\d+/,
  /node_modules/,
  /\/work\/|\/home\/|\/usr\//,
  /\bSQLITE_/,
  /no such table|syntax error|relation .* does not exist/i,
  /\bselect .* from\b/i,
  /TypeError|ReferenceError|RangeError/,
  /express-openapi-validator|kysely|better-sqlite3/i,
];

function expectHardened(a: Answer, what: string) {
  expect(a.headers.get('x-powered-by'), what).toBeNull();
  expect(a.headers.get('server'), what).toBeNull();
  expect(a.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(a.headers.get('access-control-allow-credentials'), what).toBeNull();
  expect(a.headers.get('x-request-id'), what).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  expect(a.headers.get('cache-control'), what).toBe('no-store');
  if (a.status >= 400) {
    expect(a.headers.get('content-type'), `${what}: ${a.text.slice(0, 200)}`).toContain('application/problem+json');
    expect(a.body, what).toMatchObject({
      type: expect.stringMatching(/^https:\/\/payouts\.example\/problems\//),
      status: a.status,
      title: expect.any(String),
      detail: expect.any(String),
    });
    for (const leak of leaks) expect(a.text, `${what} leaks ${leak}`).not.toMatch(leak);
  }
}

describe('every kind of answer is hardened', () => {
  const answers: [string, () => Promise<Answer>][] = [
    ['200 JSON', () => service.send('GET', '/v1/webhooks', { token: merchantToken })],
    [
      '200 token',
      () =>
        service.send('POST', '/oauth/token', {
          body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
        }),
    ],
    ['201 created', () => service.send('POST', '/v1/webhooks', { token: merchantToken, body: { url: 'http://127.0.0.1:9/hook' } })],
    ['200 health', () => service.send('GET', '/health')],
    ['400 malformed JSON', () => service.send('POST', '/v1/payees', { token: merchantToken, raw: '{"name": "x",' })],
    [
      '400 JSON with a lone surrogate and control bytes',
      () => service.send('POST', '/v1/payees', { token: merchantToken, raw: '{"name":"\\ud800\u0001"}' }),
    ],
    ['400 a JSON array body', () => service.send('POST', '/v1/payees', { token: merchantToken, raw: '[1,2,3]' })],
    ['400 a JSON string body', () => service.send('POST', '/v1/payees', { token: merchantToken, raw: '"hello"' })],
    ['400 validation', () => service.send('POST', '/v1/payees', { token: merchantToken, body: { name: 1 } })],
    ['400 bad percent-encoding in the path', () => service.send('GET', '/v1/payees/%E0%A4%A', { token: merchantToken })],
    ['400 a non-numeric id', () => service.send('GET', "/v1/payees/1'%20or%201=1--", { token: merchantToken })],
    ['401 no token', () => service.send('GET', '/v1/webhooks')],
    [
      '401 bad client',
      () =>
        service.send('POST', '/oauth/token', {
          body: { client_id: 'mch_cl_0000000000000000', client_secret: 'sk_x', grant_type: 'client_credentials' },
        }),
    ],
    ['403 wrong caller', () => service.send('GET', '/v1/webhooks', { token: partnerToken })],
    ['404 unknown object', () => service.send('GET', '/v1/payees/999999', { token: merchantToken })],
    ['404 unknown path', () => service.send('GET', '/v1/secrets', { token: merchantToken })],
    [
      '413 too large',
      () => service.send('POST', '/v1/payees', { token: merchantToken, raw: JSON.stringify({ name: 'x'.repeat(1_100_000) }) }),
    ],
    [
      '415 wrong media type',
      () =>
        service.send('POST', '/v1/payees', {
          token: merchantToken,
          raw: '<payee/>',
          headers: { 'content-type': 'application/xml' },
        }),
    ],
    [
      '422 business rule',
      () => service.send('POST', '/v1/payouts', { token: merchantToken, body: { PayeeId: 1, Amount: 1.001, Currency: 'USD' } }),
    ],
  ];

  it.each(answers)('%s', async (what, make) => {
    const a = await make();
    expect(a.status, a.text.slice(0, 300)).toBe(Number(what.slice(0, 3)));
    expectHardened(a, what);
  });

  it('docs pages too', async () => {
    const a = await service.send('GET', '/docs/nothing-here.html');
    expectHardened(a, 'docs 404');
  });

  it('token responses are never cached', async () => {
    const a = await service.send('POST', '/oauth/token', {
      body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
    });
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(a.headers.get('pragma')).toBe('no-cache');
  });

  it('answers any Origin with the wildcard, never reflecting it with credentials', async () => {
    const a = await service.send('GET', '/v1/webhooks', { token: merchantToken, headers: { origin: 'https://evil.example' } });
    expect(a.headers.get('access-control-allow-origin')).toBe('*');
    expect(a.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('a real failure is a 500 problem that says nothing about why', () => {
  it('answers a query on a dropped table with a generic 500 problem', async () => {
    const broken = await startService(':memory:');
    try {
      const m = await broken.services.credentials.createMerchant('Broken');
      const token = (await broken.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      await sql`drop table payees`.execute(broken.services.store.db);
      for (const a of [
        await send(broken.baseUrl, 'GET', '/v1/payees/1', { token }),
        await send(broken.baseUrl, 'POST', '/v1/payees/list', { token, body: {} }),
      ]) {
        expect(a.status).toBe(500);
        expect(a.body).toMatchObject({ type: problemType('internal-error'), status: 500 });
        expect(a.text).not.toMatch(/payees"?\s|no such|SQL/i);
        expectHardened(a, '500');
      }
    } finally {
      await broken.stop();
    }
  });
});

describe('nothing but documented operations answer, and every miss is a JSON 404', () => {
  const prefixes = [
    '',
    '/v1',
    '/v2',
    '/payouts',
    '/payouts/v1',
    '/payouts/api/v1',
    '/finance',
    '/finance/v1',
    '/finance/api/v1',
    '/api/v1',
    '/oauth',
    '/docs/..',
    '/health/x',
  ];
  it.each(prefixes)('%s/unknown with every method', async (prefix) => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const a = await service.send(method, `${prefix}/unknown`, {
        token: merchantToken,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      });
      expect(a.status, `${method} ${prefix}/unknown`).toBe(404);
      expect(a.body.type).toBe(problemType('not-found'));
      expectHardened(a, `${method} ${prefix}/unknown`);
    }
  });

  it('does not serve files outside the docs', async () => {
    for (const path of [
      '/docs/../package.json',
      '/docs/%2e%2e/package.json',
      '/docs/%2e%2e%2fpackage.json',
      '/docs/..%5cpackage.json',
      '/package.json',
      '/.env',
      '/server/config.ts',
      '/data/payouts.sqlite',
    ]) {
      const a = await service.send('GET', path);
      expect(a.status, path).toBe(404);
      expect(a.text).not.toContain('"dependencies"');
    }
  });
});

describe('request tricks get nowhere', () => {
  it('does not take method-override headers', async () => {
    const created = await service.send('POST', '/v1/webhooks', { token: merchantToken, body: { url: 'http://127.0.0.1:9/kept' } });
    expect(created.status).toBe(201);
    for (const header of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      const a = await service.send('POST', '/v1/webhooks', {
        token: merchantToken,
        query: { id: created.body.id },
        headers: { [header]: 'DELETE' },
        body: {},
      });
      expect(a.status, header).toBe(400);
    }
    const list = await service.send('GET', '/v1/webhooks', { token: merchantToken });
    expect(list.body.map((w: { id: string }) => w.id)).toContain(created.body.id);
  });

  it('does not echo a malformed request id (header injection, log forging)', async () => {
    for (const id of ['<script>alert(1)</script>', 'a'.repeat(65), 'x y', 'id%0d%0aSet-Cookie:%20a=b']) {
      const a = await service.send('GET', '/health', { headers: { 'x-request-id': id } });
      expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
      expect(a.headers.get('set-cookie')).toBeNull();
    }
  });

  it("answers TRACE with a 405 problem naming the path's methods, never an echo of the request", async () => {
    const { request } = await import('node:http');
    const url = new URL(service.baseUrl);
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'TRACE',
          path: '/v1/webhooks',
          headers: { authorization: `Bearer ${merchantToken}` },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(405);
    expect(answer.type).toContain('application/problem+json');
    expect(answer.body).not.toContain(merchantToken);
  });
});
