// What every response of the service shares: problem+json for every failure (never HTML, never a stack
// trace), the common headers, the body limit, the rate limit, caller kinds per group, and health.
import { beforeAll, describe, expect, it } from 'vitest';
import { useService } from '../support/use-service.js';

/** A response body, for asserting on. */
const json = async (r: Response): Promise<Record<string, any>> => (await r.json()) as Record<string, any>;

const service = useService(':memory:', { rateLimitPerMinute: 30 });
let merchantToken: string;
let partnerToken: string;
beforeAll(async () => {
  const m = await service.services.credentials.createMerchant('Acme');
  const p = await service.services.credentials.createPartner('Partner');
  merchantToken = await service.token({ kind: 'merchant', merchantId: m.merchantId });
  partnerToken = await service.token({ kind: 'partner', partnerId: p.partnerId });
});

const get = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${service.baseUrl}${path}`, {
    ...init,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
  });

describe('the HTTP surface', () => {
  it('answers health', async () => {
    expect(await (await get('/health')).json()).toEqual({ status: 'ok' });
  });

  it('sets the common headers and no X-Powered-By', async () => {
    const r = await get('/v1/webhooks', merchantToken, { headers: { 'x-request-id': 'my-trace-1' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe('my-trace-1');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('ratelimit-limit')).toBe('30');
    expect(Number(r.headers.get('ratelimit-remaining'))).toBeLessThan(30);
    expect(r.headers.get('x-powered-by')).toBeNull();
  });

  it('answers a CORS preflight so browsers may send the Authorization header', async () => {
    const r = await get('/v1/payouts', undefined, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key',
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
    expect(r.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Idempotency-Key/);
    expect(r.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  it('answers an undocumented path with a JSON 404 problem, and another method on a known path with 405', async () => {
    for (const [path, method, status, kind] of [
      ['/nowhere', 'GET', 404, 'not-found'],
      ['/v1/payees/1', 'PUT', 405, 'method-not-allowed'],
      ['/v2/payees', 'POST', 404, 'not-found'],
    ] as const) {
      const r = await get(path, merchantToken, { method });
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      const body = await json(r);
      expect(body).toMatchObject({ type: `https://payouts.example/problems/${kind}`, status });
      expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  });

  it('answers malformed JSON with 400 and a body over 1 MiB with 413, both problems', async () => {
    const bad = await get('/v1/payees', merchantToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"payeeType":',
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).type).toBe('https://payouts.example/problems/malformed-json');
    const big = await get('/v1/payees', merchantToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
    expect((await json(big)).type).toBe('https://payouts.example/problems/payload-too-large');
  });

  it('refuses a partner token on merchant operations (403) and takes no body before authenticating', async () => {
    const r = await get('/v1/payees', partnerToken, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(403);
    expect((await json(r)).type).toBe('https://payouts.example/problems/forbidden');
    const anonymous = await get('/v1/payees', undefined, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
  });

  it("limits bursts per caller: 429 with Retry-After once the minute's budget is spent", async () => {
    const token = await service.token({ kind: 'merchant', merchantId: 77 });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 35; i++) {
      last = await get('/v1/webhooks', token);
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(last!)).type).toBe('https://payouts.example/problems/rate-limited');
  });
});
