// Idempotency keys against the real service: the client sends a fresh key with every create the contract gives
// one (and with nothing else), keeps a key the caller gives, and a create whose response is lost on the way back
// (a proxy closes the socket after the service answered) is retried with the same key and answered with the
// stored response: one payee, not two.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { keyedOperations } from '../../client/idempotency.js';
import { eachPayee } from '../../client/paginate.js';
import { unwrap } from '../../client/problem-error.js';
import { groups } from '../../generated/index.js';
import { bundles, operationsOf, resolve } from '../support/contract.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let credentials: { clientId: string; clientSecret: string };

beforeAll(async () => {
  credentials = await service.services.credentials.createMerchant('Keys');
});

const payee = (name: string) => ({
  payeeType: 'individual' as const,
  name,
  EmailAddress: 'maria@example.com',
  address: { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' },
});

/** Requests as the client sends them, through a wrapper around the real fetch. */
function recordingFetch() {
  const sent: { method: string; path: string; key: string | null }[] = [];
  const fetchFn = (request: Request) => {
    sent.push({ method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key') });
    return globalThis.fetch(request);
  };
  return { sent, fetch: fetchFn };
}

describe('the keyed operations', () => {
  // The console's own API is the console page's, not the client package's (its creates take no key: DECISIONS "Console").
  it.each(groups.filter((g) => g !== 'console'))('of %s are the operations whose contract takes an Idempotency-Key header', (group) => {
    const doc = bundles[group];
    const documented = operationsOf(group)
      .filter(({ op }) =>
        (op.parameters ?? []).some((p: unknown) => resolve(doc, p).in === 'header' && resolve(doc, p).name === 'Idempotency-Key'),
      )
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(documented.length).toBeGreaterThan(0);
    expect([...keyedOperations[group]].sort()).toEqual(documented.sort());
  });
});

describe('idempotency keys against the service', () => {
  it('sends a fresh key with each create and none with other requests', async () => {
    const { sent, fetch } = recordingFetch();
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials, fetch });
    const first = await client.POST('/v1/payees', { body: payee('First') });
    const second = await client.POST('/v1/payees', { body: payee('First') });
    await unwrap(client.POST('/v1/payees/list', { body: {} }));
    await unwrap(client.GET('/v1/webhooks'));
    expect(first.response.status).toBe(201);
    expect(second.data!.id).not.toBe(first.data!.id);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.map((r) => [r.method, r.path, typeof r.key])).toEqual([
      ['POST', '/oauth/token', 'object'],
      ['POST', '/v1/payees', 'string'],
      ['POST', '/v1/payees', 'string'],
      ['POST', '/v1/payees/list', 'object'],
      ['GET', '/v1/webhooks', 'object'],
    ]);
    expect(sent[1]!.key).not.toBe(sent[2]!.key);
  });

  it('keeps the caller’s key: the service replays the first answer', async () => {
    const client = createMerchantClient({ baseUrl: service.baseUrl, credentials });
    const key = `order-${Date.now()}`;
    const once = await client.POST('/v1/payees', { params: { header: { 'Idempotency-Key': key } }, body: payee('Keyed') });
    const again = await client.POST('/v1/payees', { params: { header: { 'Idempotency-Key': key } }, body: payee('Keyed') });
    expect(again.data!.id).toBe(once.data!.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('retries a create whose answer was lost with the same key: the service creates one payee', async () => {
    // A proxy that passes everything to the service, but closes the socket instead of passing the first
    // create's answer back: the service has created the payee, the client never hears of it.
    const seen: { method: string; path: string; key: string | undefined; replayed: string | null }[] = [];
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)),
        ) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${service.baseUrl}${req.url}`, { method: req.method, headers, body });
        const text = await answer.text();
        const key = req.headers['idempotency-key'] as string | undefined;
        seen.push({ method: req.method!, path: req.url!, key, replayed: answer.headers.get('idempotent-replayed') });
        if (req.url === '/v1/payees' && seen.filter((s) => s.path === '/v1/payees').length === 1) {
          req.socket.destroy();
          return;
        }
        const passed = [...answer.headers].filter(
          ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name),
        );
        res.writeHead(answer.status, Object.fromEntries(passed)).end(text);
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const own = await service.services.credentials.createMerchant('Lost answers');
      const client = createMerchantClient({
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        credentials: { clientId: own.clientId, clientSecret: own.clientSecret },
        retryBaseDelayMs: 1,
      });
      const { data, response } = await client.POST('/v1/payees', { body: payee('Once') });
      expect(response.status).toBe(201);
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      const creates = seen.filter((s) => s.path === '/v1/payees');
      expect(creates.map((s) => s.replayed)).toEqual([null, 'true']);
      expect(creates[0]!.key).toBeTypeOf('string');
      expect(creates[1]!.key).toBe(creates[0]!.key);
      const payees = [];
      for await (const p of eachPayee(client)) payees.push(p);
      expect(payees.map((p) => p.id)).toEqual([data!.id]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((done) => proxy.close(done));
    }
  });
});
