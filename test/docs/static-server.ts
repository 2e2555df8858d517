// A minimal static server for docs/dist, mounted at /docs/ as the service serves it, that records every
// request so the browser test can tell which files the pages asked for.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface StaticServer {
  origin: string;
  requests: { path: string; status: number }[];
  close(): Promise<void>;
}

export async function serveDirectory(dir: string, prefix = '/docs/'): Promise<StaticServer> {
  const requests: StaticServer['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const relative = path.startsWith(prefix) ? decodeURIComponent(path.slice(prefix.length)) || 'index.html' : undefined;
    const safe = relative !== undefined && !normalize(relative).startsWith('..') ? normalize(relative) : undefined;
    try {
      if (safe === undefined) throw new Error('outside the docs');
      const body = await readFile(join(dir, safe));
      res.writeHead(200, { 'content-type': types[extname(safe)] ?? 'application/octet-stream' });
      res.end(body);
      requests.push({ path, status: 200 });
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      requests.push({ path, status: 404 });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
