// The client's retries, deadlines and typed failures against a real HTTP server that misbehaves on cue (429 with
// Retry-After, 503 then 200, a hang, a closed socket) and a port nothing listens on. Retries use a 1 ms base
// delay so that the suite stays fast; every assertion is on what the server saw and on the attempts reported.
import { afterEach, describe, expect, it } from 'vitest';
import { createMerchantClient, type ClientOptions } from '../../client/create-clients.js';
import { ConnectionError, TimeoutError } from '../../client/errors.js';
import { ApiProblemError, unwrap } from '../../client/problem-error.js';
import { retryAfterMs, type AttemptLog } from '../../client/retry.js';
import { type Behaviour, closedPort, type MisbehavingServer, problem, startMisbehavingServer } from './misbehaving-server.js';

const token = 'tok_secret_value_never_logged';
const payee = {
  payeeType: 'individual' as const,
  name: 'Maria Gonzalez',
  EmailAddress: 'maria@example.com',
  address: { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' },
};
const created = { id: 7, ...payee };
const ok: Behaviour = { status: 200, body: [] };
const unavailable: Behaviour = { status: 503, body: problem(503, 'service-unavailable') };

const servers: MisbehavingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: (n: number) => Behaviour, options: Partial<ClientOptions> = {}) {
  const server = await startMisbehavingServer(script);
  servers.push(server);
  const attempts: AttemptLog[] = [];
  const client = createMerchantClient({
    baseUrl: server.url,
    token,
    retryBaseDelayMs: 1,
    onAttempt: (a) => attempts.push(a),
    ...options,
  });
  return { server, client, attempts };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );

describe('retries of a read', () => {
  it('retries a 503 and returns the 200 that follows, each attempt with its own request id and the token', async () => {
    const { server, client, attempts } = await serve((n) => (n === 0 ? unavailable : ok));
    expect(await unwrap(client.GET('/v1/webhooks'))).toEqual([]);
    expect(server.seen.map((r) => r.path)).toEqual(['/v1/webhooks', '/v1/webhooks']);
    expect(server.seen.every((r) => r.headers.authorization === `Bearer ${token}`)).toBe(true);
    const ids = server.seen.map((r) => r.headers['x-request-id']);
    expect(new Set(ids).size).toBe(2);
    expect(attempts.map((a) => [a.attempt, a.status, a.requestId])).toEqual([
      [1, 503, ids[0]],
      [2, 200, ids[1]],
    ]);
    expect(attempts[0]!.retryInMs).toBeTypeOf('number');
    expect(attempts[1]!.retryInMs).toBeUndefined();
  });

  it.each([500, 502, 504])('retries a %i', async (status) => {
    const { server, client } = await serve((n) => (n === 0 ? { status, body: problem(status, 'internal-error') } : ok));
    await unwrap(client.GET('/v1/webhooks'));
    expect(server.seen).toHaveLength(2);
  });

  it('does not retry a 4xx other than 429', async () => {
    const { server, client } = await serve(() => ({ status: 404, body: problem(404, 'not-found') }));
    await expect(unwrap(client.GET('/v1/webhooks'))).rejects.toMatchObject({ status: 404, kind: 'not-found' });
    expect(server.seen).toHaveLength(1);
  });

  it('honours Retry-After on a 429', async () => {
    const { server, client, attempts } = await serve((n) =>
      n === 0 ? { status: 429, headers: { 'Retry-After': '1' }, body: problem(429, 'rate-limited') } : ok,
    );
    await unwrap(client.GET('/v1/webhooks'));
    expect(server.seen).toHaveLength(2);
    expect(attempts.map((a) => [a.status, a.retryInMs])).toEqual([
      [429, 1000],
      [200, undefined],
    ]);
  });

  it('returns a 429 whose Retry-After is longer than a minute at once, as a typed problem', async () => {
    const { server, client, attempts } = await serve(() => ({
      status: 429,
      headers: { 'Retry-After': '120' },
      body: problem(429, 'rate-limited'),
    }));
    const error = await failure(unwrap(client.GET('/v1/webhooks')));
    expect(error).toBeInstanceOf(ApiProblemError);
    expect(error).toMatchObject({ status: 429, kind: 'rate-limited' });
    expect(server.seen).toHaveLength(1);
    expect(attempts[0]!.retryInMs).toBeUndefined();
  });

  it('gives up after maxRetries and surfaces the last answer', async () => {
    const { server, client, attempts } = await serve(() => unavailable, { maxRetries: 3 });
    await expect(unwrap(client.GET('/v1/webhooks'))).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(4);
    expect(attempts.map((a) => a.retryInMs !== undefined)).toEqual([true, true, true, false]);
  });

  it('does not retry with maxRetries 0', async () => {
    const { server, client } = await serve(() => unavailable, { maxRetries: 0 });
    await expect(unwrap(client.GET('/v1/webhooks'))).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
  });
});

describe('retries of a write', () => {
  it('sends a generated Idempotency-Key with a create and the same key on every retry', async () => {
    const { server, client } = await serve((n) => (n < 2 ? unavailable : { status: 201, body: created }));
    expect(await unwrap(client.POST('/v1/payees', { body: payee }))).toEqual(created);
    const keys = server.seen.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(server.seen.map((r) => JSON.parse(r.body))).toEqual([payee, payee, payee]);
  });

  it('keeps the caller’s own Idempotency-Key', async () => {
    const { server, client } = await serve((n) => (n === 0 ? 'close' : { status: 201, body: created }));
    await unwrap(client.POST('/v1/payees', { params: { header: { 'Idempotency-Key': 'order-1234' } }, body: payee }));
    expect(server.seen.map((r) => r.headers['idempotency-key'])).toEqual(['order-1234', 'order-1234']);
  });

  it('generates a new key for each create', async () => {
    const { server, client } = await serve(() => ({ status: 201, body: created }));
    await unwrap(client.POST('/v1/payees', { body: payee }));
    await unwrap(client.POST('/v1/payees', { body: payee }));
    const [first, second] = server.seen.map((r) => r.headers['idempotency-key']);
    expect(first).toBeTypeOf('string');
    expect(second).toBeTypeOf('string');
    expect(first).not.toBe(second);
  });

  it('does not retry a POST that takes no Idempotency-Key, and sends it none', async () => {
    const { server, client } = await serve(() => unavailable);
    await expect(unwrap(client.POST('/v1/payees/list', { body: {} }))).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.headers['idempotency-key']).toBeUndefined();
  });
});

describe('failures without an answer', () => {
  it('raises TimeoutError when no answer comes within the timeout, after retrying', async () => {
    const { server, client, attempts } = await serve(() => 'hang', { timeout: 100, maxRetries: 1 });
    const error = await failure(client.GET('/v1/webhooks'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.seen).toHaveLength(2);
    expect((error as TimeoutError).requestId).toBe(server.seen[1]!.headers['x-request-id']);
    expect(attempts.map((a) => [a.error, a.status])).toEqual([
      ['timeout', undefined],
      ['timeout', undefined],
    ]);
  });

  it('raises ConnectionError when the server closes the socket, after retrying', async () => {
    const { server, client, attempts } = await serve(() => 'close');
    const error = await failure(client.GET('/v1/webhooks'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).requestId).toBe(server.seen[2]!.headers['x-request-id']);
    expect(server.seen).toHaveLength(3);
    expect(attempts.map((a) => a.error)).toEqual(['connection', 'connection', 'connection']);
  });

  it('recovers a create from a closed socket with the same key', async () => {
    const { server, client } = await serve((n) => (n === 0 ? 'close' : { status: 201, body: created }));
    expect(await unwrap(client.POST('/v1/payees', { body: payee }))).toEqual(created);
    expect(new Set(server.seen.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(server.seen).toHaveLength(2);
  });

  it('raises ConnectionError, not a bare TypeError, for a server that cannot be reached', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const attempts: AttemptLog[] = [];
    const client = createMerchantClient({ baseUrl, token, retryBaseDelayMs: 1, onAttempt: (a) => attempts.push(a) });
    const error = await failure(client.GET('/v1/webhooks'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain(`GET ${baseUrl}/v1/webhooks`);
    expect((error as ConnectionError).requestId).toMatch(/^req_[0-9a-f]{16}$/);
    expect(attempts).toHaveLength(3);
    // With credentials, the token request fails the same way.
    const withCredentials = createMerchantClient({ baseUrl, credentials: { clientId: 'c', clientSecret: 's' }, retryBaseDelayMs: 1 });
    await expect(withCredentials.GET('/v1/webhooks')).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('the caller’s signal', () => {
  it('aborts a request: the abort passes through as it is, and nothing is retried', async () => {
    const { server, client } = await serve(() => 'hang');
    const controller = new AbortController();
    const call = failure(client.GET('/v1/webhooks', { signal: controller.signal }));
    await expect.poll(() => server.seen.length).toBe(1);
    controller.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    expect(server.seen).toHaveLength(1);
  });

  it('aborts the wait before a retry', async () => {
    const { server, client } = await serve(() => ({ status: 503, headers: { 'Retry-After': '30' }, body: problem(503, 'x') }));
    const controller = new AbortController();
    const call = failure(client.GET('/v1/webhooks', { signal: controller.signal }));
    await expect.poll(() => server.seen.length).toBe(1);
    controller.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    expect(server.seen).toHaveLength(1);
  });

  it('turns AbortSignal.timeout() into a TimeoutError, without retrying past the caller’s deadline', async () => {
    const { server, client } = await serve(() => 'hang');
    const error = await failure(client.GET('/v1/webhooks', { signal: AbortSignal.timeout(100) }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(1);
  });
});

describe('the attempt hook and token requests', () => {
  it('reports every attempt without the Authorization header or any secret', async () => {
    const clientSecret = 'sk_super_secret_credential';
    const { server, attempts } = await serve((n) => {
      if (n === 0) return unavailable; // the token request, retried: issuing a token creates nothing
      if (n === 1) return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } };
      return n === 2 ? 'close' : ok;
    });
    const client = createMerchantClient({
      baseUrl: server.url,
      credentials: { clientId: 'mch_cl_1', clientSecret },
      retryBaseDelayMs: 1,
      onAttempt: (a) => attempts.push(a),
    });
    await unwrap(client.GET('/v1/webhooks'));
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /oauth/token',
      'POST /oauth/token',
      'GET /v1/webhooks',
      'GET /v1/webhooks',
    ]);
    expect(attempts.map((a) => [a.method, new URL(a.url).pathname, a.attempt, a.status ?? a.error])).toEqual([
      ['POST', '/oauth/token', 1, 503],
      ['POST', '/oauth/token', 2, 200],
      ['GET', '/v1/webhooks', 1, 'connection'],
      ['GET', '/v1/webhooks', 2, 200],
    ]);
    for (const a of attempts) {
      expect(a.durationMs).toBeGreaterThanOrEqual(0);
      expect(a.requestId).toMatch(/^req_/);
    }
    const logged = JSON.stringify(attempts);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(clientSecret);
    expect(logged.toLowerCase()).not.toContain('authorization');
  });
});

describe('Retry-After', () => {
  it('is read as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
