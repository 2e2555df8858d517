// The client's typed outcomes against the real service: problems carry their catalogue kind and the request id
// the service answered with; a 204 unwraps to undefined; a 429 is a typed problem; and a service failing with
// 500 (its store has lost its tables) is retried for a read and for a keyed create, then surfaces as a problem.
import { inspect } from 'node:util';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { ApiProblemError, unwrap } from '../../client/problem-error.js';
import { retryAfterMs, type AttemptLog } from '../../client/retry.js';
import { useService } from '../support/use-service.js';

const individual = {
  payeeType: 'individual' as const,
  name: 'Maria Gonzalez',
  EmailAddress: 'maria@example.com',
  address: { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' },
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );

describe('against a working service', () => {
  const service = useService(':memory:');
  let credentials: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    credentials = await service.services.credentials.createMerchant('Errors');
  });

  it('a problem has its catalogue kind and the request id the service answered with', async () => {
    const sent: string[] = [];
    const client = createMerchantClient({
      baseUrl: service.baseUrl,
      credentials,
      fetch: (request) => {
        sent.push(request.headers.get('x-request-id')!);
        return globalThis.fetch(request);
      },
    });
    const error = await failure(unwrap(client.GET('/v1/payees/{id}', { params: { path: { id: 987654 } } })));
    expect(error).toBeInstanceOf(ApiProblemError);
    const problem = error as ApiProblemError;
    expect(problem).toMatchObject({ status: 404, kind: 'not-found', type: 'https://payouts.example/problems/not-found' });
    expect(problem.requestId).toBe(problem.response!.headers.get('x-request-id'));
    expect(problem.requestId).toBe(sent.at(-1));
  });

  it('a problem reads in a few lines, its message naming each field at fault', async () => {
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials });
    const error = (await failure(
      unwrap(client.POST('/v1/payees', { body: { ...individual, EmailAddress: 'not an address', name: '' } })),
    )) as ApiProblemError;
    expect(error.errors.map((e) => e.pointer).sort()).toEqual(['#/EmailAddress', '#/name']);
    expect(error.message).toMatch(/^400 validation-error: The request has 2 invalid fields\. \(#\/\w+ .+; #\/\w+ .+\)$/);
    // As Node prints it, uncaught or logged: the status, kind, title, detail, each field, the request id and a
    // few frames; none of the response's internals.
    const printed = inspect(error);
    expect(printed.split('\n').length).toBeLessThanOrEqual(10);
    expect(printed).toContain('ApiProblemError: 400 validation-error: Your request is not valid.');
    expect(printed).toContain('  - #/EmailAddress: ');
    expect(printed).toContain(`request id: ${error.requestId}`);
    expect(printed).not.toMatch(/Symbol\(|undici|headers:/i);
    // The response is still there for whoever asks, just not printed.
    expect(error.response!.status).toBe(400);
    expect(Object.keys(error)).not.toContain('response');
  });

  it('a 204 unwraps to undefined', async () => {
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials });
    // Loopback addresses are allowed here (the test service sets WEBHOOK_ALLOW_PRIVATE); nothing is delivered.
    const hook = await unwrap(client.POST('/v1/webhooks', { body: { url: 'http://127.0.0.1:9/payouts' } }));
    expect(await unwrap(client.DELETE('/v1/webhooks', { params: { query: { id: hook.id } } }))).toBeUndefined();
    expect(await unwrap(client.GET('/v1/webhooks'))).toEqual([]);
  });
});

describe('against a rate-limited service', () => {
  const service = useService(':memory:', { rateLimitPerMinute: 1 }, { workers: false });

  it('a 429 is a typed rate-limited problem with the service’s Retry-After', async () => {
    const m = await service.services.credentials.createMerchant('Limited');
    const token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
    const attempts: AttemptLog[] = [];
    const client = createMerchantClient({ baseUrl: service.baseUrl, token, maxRetries: 0, onAttempt: (a) => attempts.push(a) });
    await unwrap(client.GET('/v1/webhooks'));
    const error = (await failure(unwrap(client.GET('/v1/webhooks')))) as ApiProblemError;
    expect(error).toBeInstanceOf(ApiProblemError);
    expect(error).toMatchObject({ status: 429, kind: 'rate-limited' });
    expect(retryAfterMs(error.response!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(attempts.map((a) => a.status)).toEqual([200, 429]);
  });
});

describe('against a failing service (500)', () => {
  const service = useService(':memory:', {}, { workers: false });
  let token: string;

  beforeAll(async () => {
    const m = await service.services.credentials.createMerchant('Broken');
    // A token from the issuer itself names no client, so verifying it reads no table.
    token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
    const db = service.services.store.db;
    await sql`pragma foreign_keys = off`.execute(db);
    for (const table of await db.introspection.getTables()) await sql`drop table ${sql.table(table.name)}`.execute(db);
  });

  function client() {
    const attempts: AttemptLog[] = [];
    const keys: (string | null)[] = [];
    const merchant = createMerchantClient({
      baseUrl: service.baseUrl,
      token,
      retryBaseDelayMs: 1,
      onAttempt: (a) => attempts.push(a),
      fetch: (request) => {
        keys.push(request.headers.get('idempotency-key'));
        return globalThis.fetch(request);
      },
    });
    return { merchant, attempts, keys };
  }

  it('retries a read, then surfaces the internal-error problem', async () => {
    const { merchant, attempts } = client();
    const error = await failure(unwrap(merchant.GET('/v1/webhooks')));
    expect(error).toMatchObject({ status: 500, kind: 'internal-error' });
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
    ]);
  });

  it('retries a create with the same key each time', async () => {
    const { merchant, attempts, keys } = client();
    await expect(unwrap(merchant.POST('/v1/payees', { body: individual }))).rejects.toMatchObject({ kind: 'internal-error' });
    expect(attempts).toHaveLength(3);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTypeOf('string');
  });
});
