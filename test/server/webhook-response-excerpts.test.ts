// A delivery's `responseExcerpt`: the start of the receiver's answer body (at most 200 characters, as one line of
// text), answered with the attempt (testWebhook) and kept in the delivery log (listWebhookDeliveries), on each store;
// null when the receiver answered no body or did not answer. And the excerpt rule on its own.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { excerptOf, responseExcerptLength } from '../../server/domain/webhooks/webhook-delivery.js';
import { newMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const answers: Record<string, { status: number; body: string | Buffer }> = {
  '/ok': { status: 200, body: '{"status":"ok"}' },
  '/lines': { status: 500, body: 'Internal\r\nServer\tError\n' },
  '/long': { status: 200, body: `${'é'.repeat(150)}${'x'.repeat(5_000)}` },
  '/empty': { status: 204, body: '' },
};

describe('the excerpt of an answer body', () => {
  it('is its start as one line, at most 200 characters of any script, or null for nothing to show', () => {
    expect(excerptOf(Buffer.from('{"status":"ok"}'))).toBe('{"status":"ok"}');
    expect(excerptOf(Buffer.from('  Bad\r\n\r\nGateway\x00\x7f!  '))).toBe('Bad Gateway !');
    const long = excerptOf(Buffer.from('日本語'.repeat(400)))!;
    expect([...long]).toHaveLength(responseExcerptLength);
    expect(excerptOf(Buffer.from([0xff, 0xfe, 0x41]))).toBe('\uFFFD\uFFFDA');
    expect(excerptOf(Buffer.from(''))).toBeNull();
    expect(excerptOf(Buffer.from('\r\n\t '))).toBeNull();
  });
});

describe.each(stores)('webhook response excerpts on $name', (kind) => {
  const service = useService(kind, { webhookTimeoutMs: 5_000 });
  let receiver: Server;
  let origin: string;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      const answer = answers[req.url ?? ''] ?? { status: 404, body: 'no such hook' };
      req.on('end', () => res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('answers each attempt with the start of what the receiver said, and keeps it in the delivery log', async () => {
    const m = await newMerchant(service);
    const expected: Record<string, { statusCode: number | null; responseExcerpt: string | null }> = {
      '/ok': { statusCode: 200, responseExcerpt: '{"status":"ok"}' },
      '/lines': { statusCode: 500, responseExcerpt: 'Internal Server Error' },
      '/long': { statusCode: 200, responseExcerpt: `${'é'.repeat(150)}${'x'.repeat(50)}` },
      '/empty': { statusCode: 204, responseExcerpt: null },
    };
    for (const [path, want] of Object.entries(expected)) {
      const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `${origin}${path}` } }));
      const tested = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
      expect(tested, path).toMatchObject(want);
      const listed = await unwrap(m.a.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id } } }));
      expect(listed.data, path).toEqual([expect.objectContaining({ ...want, eventId: tested.eventId, attempt: 1 })]);
    }
  });

  it('keeps none when the receiver does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const m = await newMerchant(service);
    const hook = await unwrap(m.a.POST('/v1/webhooks', { body: { url: `http://127.0.0.1:${port}/gone` } }));
    const tested = await unwrap(m.a.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    expect(tested).toMatchObject({ outcome: 'failed', statusCode: null, responseExcerpt: null, error: expect.any(String) });
  });

  it('answers a partner’s deliveries with their excerpts too', async () => {
    const p = await service.partner();
    const hook = await unwrap(p.c.POST('/finance/v1/webhooks', { body: { url: `${origin}/ok` } }));
    const tested = await unwrap(p.c.POST('/finance/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
    expect(tested).toMatchObject({ statusCode: 200, responseExcerpt: '{"status":"ok"}' });
    const listed = await unwrap(p.c.GET('/finance/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id } } }));
    expect(listed.data[0]).toMatchObject({ responseExcerpt: '{"status":"ok"}' });
  });
});
