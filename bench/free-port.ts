// Free TCP ports on 127.0.0.1: the kernel picks one (listen on 0), we release it and hand it to a child.
import { createServer } from 'node:net';

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

/** A base port with `count` free ports after it (startMocks wants consecutive ones), away from the defaults. */
export async function freePortRange(count: number, attempts = 50): Promise<number> {
  for (let i = 0; i < attempts; i++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const checks = await Promise.all(Array.from({ length: count }, (_, k) => isFree(base + k)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
