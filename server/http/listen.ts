// Serving the app on a port. What Express never sees is answered here: a request Node's HTTP parser refuses
// (headers over 16 KiB, a malformed request line) and a request that does not arrive in time get a problem+json
// answer instead of Node's bare status line; a connection over the cap is closed as it is accepted; and a port
// that cannot be bound rejects with the reason instead of starting half-way.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../platform/config.js';
import { randomBytesFromPool } from '../platform/ids/random-pool.js';
import { Problem } from '../platform/problems.js';

export type ServerLimits = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'>;

const reasons: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Writes a problem on a socket whose request never reached Express (or is still arriving), then closes it: once
 * the answer is flushed the socket is destroyed, so a peer that keeps its side open cannot keep the connection. */
function answerUnparsed(socket: Socket, problem: Problem): void {
  const requestId = `req_${randomBytesFromPool(8).toString('hex')}`;
  const { instance: _unknown, ...body } = problem.body('/', requestId);
  const text = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${problem.status} ${reasons[problem.status]}`,
      'Content-Type: application/problem+json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(text)}`,
      `X-Request-Id: ${requestId}`,
      'Access-Control-Allow-Origin: *',
      'Cache-Control: no-store',
      'Connection: close',
      '',
      text,
    ].join('\r\n'),
    () => socket.destroy(),
  );
}

/** Whether an answer of Express's has started on this socket: then nothing more can be written in its place. */
const answering = (socket: Socket) => (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;

function clientErrorHandler(limits: ServerLimits) {
  const late = new Problem(
    'request-timeout',
    `The request did not arrive in time: its headers must arrive within ${limits.headersTimeoutMs} ms and all of it within ${limits.requestTimeoutMs} ms.`,
  );
  return (err: Error & { code?: string }, socket: Socket): void => {
    // A peer that went away cannot be answered.
    if (!socket.writable || err.code === 'ECONNRESET' || answering(socket)) socket.destroy();
    else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') answerUnparsed(socket, late);
    else if (err.code === 'HPE_HEADER_OVERFLOW') {
      answerUnparsed(socket, new Problem('headers-too-large', 'The request line and headers are limited to 16384 bytes in all.'));
    } else if (err.code?.startsWith('HPE_')) answerUnparsed(socket, new Problem('malformed-request', 'The request is not valid HTTP/1.1.'));
    else socket.destroy();
  };
}

/** Resolves with the listening server, or rejects (EADDRINUSE, EACCES, ...) without leaving one behind. */
export function listen(app: Express, port: number, host: string, limits: ServerLimits): Promise<Server> {
  const server = createServer(
    {
      // A request dribbled in a byte at a time holds its connection only this long (Node's defaults are 300 s
      // and 60 s, and it checks them every 30 s: about 330 s for a slow body).
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // The timeouts are enforced when the connections are checked: often enough that one fires close to its time.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, limits.headersTimeoutMs / 4)),
      // Node's own answer to a request without Host is a bare 400: http/request-target.ts answers a problem.
      requireHostHeader: false,
    },
    app,
  );
  server.maxConnections = limits.maxConnections;
  server.on('clientError', clientErrorHandler(limits));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
