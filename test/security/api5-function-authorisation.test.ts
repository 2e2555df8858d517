// OWASP API5:2023 Broken Function Level Authorisation, on every operation of every group: a merchant token
// on partner operations (C, E) and a partner token on merchant operations (A, B, D) get 403 and change
// nothing, while the right kind of token gets through; no undocumented method reaches a handler (HEAD is
// not a way around authentication); and the provisioning functions (merchants, partners, links, secret
// rotation) exist only in the admin CLI, not over HTTP, for any caller.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { distinctOperations, servedOperations } from '../support/operations.js';
import { fill, problemType } from '../support/requests.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let tokens: { merchant: string; partner: string };

beforeAll(async () => {
  const m = await service.services.credentials.createMerchant('Acme');
  const p = await service.services.credentials.createPartner('Partner');
  await service.services.credentials.link(p.partnerId, m.merchantId);
  tokens = {
    merchant: await service.token({ kind: 'merchant', merchantId: m.merchantId }),
    partner: await service.token({ kind: 'partner', partnerId: p.partnerId }),
  };
});

// The bearer-token operations: the console's take a session cookie instead (test/server/console-sessions.test.ts).
const secured = servedOperations.filter((o) => o.caller !== 'none' && o.caller !== 'console');
const wrongKind = { merchant: 'partner', partner: 'merchant' } as const;

async function totalRows(): Promise<number> {
  const db = service.services.store.db;
  let n = 0;
  // request_logs records every request that authenticated, refused ones included (the console's request log).
  for (const t of (await db.introspection.getTables()).filter((t) => t.name !== 'request_logs'))
    n += Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t.name)}`.execute(db)).rows[0]!.n);
  return n;
}

describe('each caller kind reaches only its own groups', () => {
  it('knows the caller kind of every operation: merchants for A, B and D, partners for C and E', () => {
    for (const o of secured)
      expect(o.caller, `${o.group} ${o.operationId}`).toBe(['partner', 'counterparty'].includes(o.group) ? 'partner' : 'merchant');
  });

  it.each(secured.map((o) => [`${o.group} ${o.operationId}`, o] as const))(
    '%s: the other kind of token is 403 and changes nothing',
    async (_, o) => {
      const before = await totalRows();
      // The token is checked before the body, so an empty one does: a 403 is about the caller.
      const body = o.bodySchema ? { body: {} } : {};
      const wrong = await service.send(o.method.toUpperCase(), fill(o.url), {
        token: tokens[wrongKind[o.caller as 'merchant' | 'partner']],
        ...body,
      });
      expect(wrong.status, wrong.text).toBe(403);
      expect(wrong.headers.get('content-type')).toContain('application/problem+json');
      expect(wrong.body).toMatchObject({ type: problemType('forbidden'), status: 403 });
      const right = await service.send(o.method.toUpperCase(), fill(o.url), {
        token: tokens[o.caller as 'merchant' | 'partner'],
        ...body,
      });
      expect([401, 403], right.text).not.toContain(right.status);
      expect(right.body?.detail ?? '', 'the operation is mounted').not.toMatch(/^No operation at/);
      expect(await totalRows()).toBe(before);
    },
  );
});

describe('no undocumented method reaches a handler', () => {
  const paths = [...new Set(distinctOperations.filter((o) => o.caller !== 'none').map((o) => o.url))];
  const documented = (url: string) => new Set(distinctOperations.filter((o) => o.url === url).map((o) => o.method.toUpperCase()));

  it.each(paths)('%s', async (url) => {
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !documented(url).has(m));
    expect(methods.length).toBeGreaterThan(0);
    const has = documented(url).has('GET') ? new Set([...documented(url), 'HEAD']) : documented(url);
    const allow = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => has.has(m)).join(', ');
    for (const method of methods.filter((m) => !has.has(m))) {
      for (const token of [tokens.merchant, tokens.partner, 'not-a-token', undefined]) {
        const r = await service.send(method, fill(url), {
          ...(token ? { token } : {}),
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: {} }),
        });
        // Method not allowed, naming the methods the path has (RFC 9110); never a handler's 2xx, 401, 403 or 422.
        expect(r.status, `${method} ${url} → ${r.status} ${r.text}`).toBe(405);
        expect(r.headers.get('allow'), `${method} ${url}`).toBe(allow);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
      }
    }
  });
});

describe('provisioning is not exposed over HTTP', () => {
  const guesses = [
    ['POST', '/admin/merchants'],
    ['POST', '/v1/merchants'],
    ['GET', '/v1/merchants'],
    ['POST', '/v1/partners'],
    ['POST', '/finance/v1/partner/link'],
    ['POST', '/finance/v1/partner/list'],
    ['POST', '/v1/clients/rotate-secret'],
    ['POST', '/oauth/rotate'],
    ['GET', '/admin'],
    ['GET', '/internal/keys'],
    ['GET', '/.well-known/jwks.json'],
    ['GET', '/debug/vars'],
    ['GET', '/metrics'],
  ] as const;

  it.each(guesses)('%s %s is a 404 problem for every caller (405 where the path is documented for reading)', async (method, path) => {
    const pathExists = distinctOperations.some((o) => o.url === path);
    for (const token of [tokens.merchant, tokens.partner, undefined]) {
      const r = await service.send(method, path, {
        ...(token ? { token } : {}),
        ...(method === 'POST' ? { body: { name: 'Evil', partnerId: 1, merchantId: 1 } } : {}),
      });
      expect(r.status).toBe(pathExists ? 405 : 404);
      expect(r.body.type).toBe(problemType(pathExists ? 'method-not-allowed' : 'not-found'));
    }
  });
});
