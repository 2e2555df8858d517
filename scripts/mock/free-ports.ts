// Free TCP ports on 127.0.0.1 for servers started as children (the service, Prism mocks and proxies) by the
// benchmarks and the tests.
import { createServer } from 'node:net';

/** One free port: the kernel picks it (listen on 0), we release it and hand it on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port with `count` free consecutive ports after it (startMocks wants consecutive ones), between `from`
 * and `to`: away from a developer's `npm run mock` (4010..4014) by default; suites running at once pass ranges
 * of their own.
 */
export async function freePortRange(count: number, from = 4510, to = 5500): Promise<number> {
  for (let base = from; base + count <= to; base += 10) {
    const free = await Promise.all(Array.from({ length: count }, (_, i) => isFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports between ${from} and ${to}`);
}
