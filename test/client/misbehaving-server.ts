// A real HTTP server (node:http on a free port) that misbehaves on cue, for the client's retries and deadlines:
// each request is recorded (method, path, headers, body) and answered as the script says for its number: an
// answer, a hang (no answer until the server closes) or a closed socket.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang' | 'close';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface MisbehavingServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** `script(n, request)` answers the n-th request (0-based). */
export async function startMisbehavingServer(script: (n: number, request: SeenRequest) => Behaviour): Promise<MisbehavingServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() };
      const behaviour = script(seen.length, request);
      seen.push(request);
      if (behaviour === 'hang') return;
      if (behaviour === 'close') {
        req.socket.destroy();
        return;
      }
      const body = behaviour.body === undefined ? '' : JSON.stringify(behaviour.body);
      const type = behaviour.status >= 400 ? 'application/problem+json' : 'application/json';
      res.writeHead(behaviour.status, { 'content-type': type, ...behaviour.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The problem body the service sends with a status (enough of it for the client's ApiProblemError). */
export const problem = (status: number, kind: string) => ({
  type: `https://payouts.example/problems/${kind}`,
  title: kind,
  status,
  detail: `a ${status} for the test`,
});

/** A port nothing listens on: one the system just gave out and that was closed again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
