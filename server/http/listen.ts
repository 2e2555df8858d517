// Serving the app on a port. Two things Express never sees are answered here: a request Node's HTTP parser
// refuses (headers over 16 KiB, a malformed request line) gets a problem+json answer instead of Node's bare
// status line, and a port that cannot be bound rejects with the reason instead of starting half-way.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { randomBytesFromPool } from '../ids/random-pool.js';
import { Problem } from '../problems.js';

const reasons: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/** Writes a problem on a socket whose request never reached Express, then closes it. */
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
  );
}

function onClientError(err: Error & { code?: string }, socket: Socket): void {
  // A peer that went away cannot be answered.
  if (!socket.writable || err.code === 'ECONNRESET') socket.destroy();
  else if (err.code === 'HPE_HEADER_OVERFLOW') {
    answerUnparsed(socket, new Problem('headers-too-large', 'The request line and headers are limited to 16384 bytes in all.'));
  } else if (err.code?.startsWith('HPE_')) answerUnparsed(socket, new Problem('malformed-request', 'The request is not valid HTTP/1.1.'));
  else socket.destroy();
}

/** Resolves with the listening server, or rejects (EADDRINUSE, EACCES, ...) without leaving one behind. */
export function listen(app: Express, port: number, host: string): Promise<Server> {
  const server = createServer(app);
  server.on('clientError', onClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
