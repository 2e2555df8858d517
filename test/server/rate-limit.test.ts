// The rate limiter's window, on a clock the test moves: each caller's minute opens at its own first request,
// so no instant hands every caller a fresh budget at once, and a budget spent just before a clock minute
// turns is still spent just after it (the flaw of a window fixed to the clock's minutes). The limiter counts in
// memory here (the embedded store's limits) on Date.now, as rate-limiter-flexible reads it, so the test moves
// Date.now; test/reliability/shared-limits.test.ts holds the same limit across two instances.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimit } from '../../server/http/rate-limit.js';

let clock = 0;
let baseUrl: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  // The caller is whoever the Authorization header names; the service's own callerOf verifies a token.
  app.use(rateLimit(2, async (req) => req.headers.authorization));
  app.get('/ping', (_req, res) => void res.json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterAll(() => {
  vi.restoreAllMocks();
  close();
});

const ping = async (caller: string) => {
  const r = await fetch(`${baseUrl}/ping`, { headers: { authorization: caller } });
  await r.arrayBuffer();
  return { status: r.status, reset: Number(r.headers.get('ratelimit-reset')), retryAfter: r.headers.get('retry-after') };
};

describe('rate limit windows', () => {
  it("opens a caller's window at its first request and keeps it shut across a clock minute", async () => {
    clock = 59_000; // one second before the clock's minute turns
    expect((await ping('a')).status).toBe(200);
    expect((await ping('a')).status).toBe(200);
    const refused = await ping('a');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('60');
    clock = 61_000; // the clock's minute has turned; a's minute has not
    const still = await ping('a');
    expect(still.status).toBe(429);
    expect(still.reset).toBe(58);
    clock = 119_000; // a's minute is over
    expect((await ping('a')).status).toBe(200);
  });

  it('gives each caller its own window', async () => {
    clock = 200_000;
    await ping('b');
    await ping('b');
    clock = 230_000;
    expect((await ping('b')).status).toBe(429);
    expect((await ping('c')).status).toBe(200);
    clock = 260_000; // b's window is over, c's is half way
    expect((await ping('b')).status).toBe(200);
    expect((await ping('c')).status).toBe(200);
    expect((await ping('c')).status).toBe(429);
  });

  it('counts a request without a verified caller against its address', async () => {
    clock = 400_000;
    const anonymous = async () => {
      const r = await fetch(`${baseUrl}/ping`);
      await r.arrayBuffer();
      return r.status;
    };
    expect([await anonymous(), await anonymous(), await anonymous()]).toEqual([200, 200, 429]);
  });
});
