// How long a request may take to arrive and how many connections are open at once (server/http/listen.ts,
// REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_CONNECTIONS), through real sockets on a service configured small:
// a body or headers dribbled in are answered 408 with a problem and the connection is closed (Node's defaults
// held such a connection about 330 s); a connection over the cap is closed as it is accepted, and service
// resumes once the others close.
import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config.js';
import { answerOf, exchange, open, type RawAnswer } from '../support/raw-http.js';
import { problemType } from '../support/requests.js';
import { useService } from '../support/use-service.js';

/** Writes one byte every `everyMs` until the socket closes: a client that is never quite idle. */
function dribble(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('requests that do not arrive in time', () => {
  const service = useService(':memory:', { requestTimeoutMs: 500, headersTimeoutMs: 300 }, { workers: false });
  let host: string;
  beforeAll(async () => {
    host = new URL(service.baseUrl).host;
  });

  const expectTimedOut = (a: RawAnswer) => {
    expect(a.status, a.text).toBe(408);
    expect(a.headers['content-type']).toContain('application/problem+json');
    expect(a.headers.connection).toBe('close');
    expect(a.body).toMatchObject({
      type: problemType('request-timeout'),
      status: 408,
      title: 'The request did not arrive in time.',
      detail: 'The request did not arrive in time: its headers must arrive within 300 ms and all of it within 500 ms.',
      requestId: expect.stringMatching(/^req_/),
    });
  };

  it('answers a body sent a byte at a time with a 408 problem and closes the connection', { timeout: 60_000 }, async () => {
    const socket = await open(service.baseUrl);
    const answer = answerOf(socket);
    socket.write(`POST /v1/payees HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
    dribble(socket, ' '.repeat(990), 50);
    // Closed by the server (the answer above ends when the socket does) on the service's own timer: the problem
    // names its 500 ms, where Node's default (300 s) would answer a bare 408 without one.
    expectTimedOut(await answer);
  });

  it('answers headers sent a byte at a time the same way', { timeout: 60_000 }, async () => {
    const socket = await open(service.baseUrl);
    const answer = answerOf(socket);
    socket.write('GET /v1/webhooks HTTP/1.1\r\n');
    dribble(socket, `Host: ${host}\r\nX-Padding: ${'a'.repeat(500)}\r\n\r\n`, 20);
    expectTimedOut(await answer);
  });

  it('answers a request that arrives in time as usual, on a connection kept open between requests', async () => {
    const socket = await open(service.baseUrl);
    const answer = answerOf(socket);
    socket.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    const { text } = await answer;
    expect(text.match(/HTTP\/1\.1 200 OK/g) ?? []).toHaveLength(1); // the first answer was read by 'data' above
    expect(text).toContain('"status":"ok"');
  });
});

describe('MAX_CONNECTIONS', () => {
  const cap = 3;
  // Idle connections are kept long enough that none of the held ones is closed under the test's feet.
  const service = useService(':memory:', { maxConnections: cap, keepAliveTimeoutMs: 120_000 }, { workers: false });
  let host: string;
  beforeAll(async () => {
    host = new URL(service.baseUrl).host;
  });

  const health = (connection: 'keep-alive' | 'close') => `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: ${connection}\r\n\r\n`;

  it('closes a connection over the cap while the others are open, and serves again once they close', async () => {
    // Each of the first `cap` connections is answered, so the server counts it, and stays open.
    const held: Socket[] = [];
    for (let i = 0; i < cap; i++) {
      const socket = await open(service.baseUrl);
      socket.write(health('keep-alive'));
      const data = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
      expect(data.toString()).toMatch(/^HTTP\/1\.1 200/);
      held.push(socket);
    }
    const refused = await exchange(service.baseUrl, health('close'));
    expect(refused).toMatchObject({ status: 0, text: '' });

    await Promise.all(
      held.map(
        (socket) =>
          new Promise((resolve) => {
            socket.once('close', resolve);
            socket.destroy();
          }),
      ),
    );
    // The server learns of the closes on its own turn: a connection that races it is closed like the one above,
    // so ask until one is answered.
    let answered: RawAnswer | undefined;
    for (let attempt = 0; attempt < 100 && !answered?.status; attempt++) answered = await exchange(service.baseUrl, health('close'));
    expect(answered?.status).toBe(200);
  });
});

describe('the limits from the environment', () => {
  it('defaults to 30 s for a request, 10 s for its headers, 5 s for an idle connection and 1000 connections', () => {
    expect(loadConfig({})).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 1000,
    });
  });

  it('reads each variable', () => {
    const env = { REQUEST_TIMEOUT_MS: '20000', HEADERS_TIMEOUT_MS: '4000', KEEP_ALIVE_TIMEOUT_MS: '65000', MAX_CONNECTIONS: '50' };
    expect(loadConfig(env)).toMatchObject({
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 4000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 50,
    });
    // A request timeout under the default headers timeout takes the headers' with it.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' })).toMatchObject({ requestTimeoutMs: 5000, headersTimeoutMs: 5000 });
  });

  it('refuses values that would turn a limit off or contradict another, naming the variable', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS must be an integer of at least 100/);
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/MAX_CONNECTIONS must be an integer of at least 1/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      'HEADERS_TIMEOUT_MS (6000) must not be longer than REQUEST_TIMEOUT_MS (5000).',
    );
  });
});
