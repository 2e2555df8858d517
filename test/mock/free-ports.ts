// A base port with `count` free consecutive ports after it, so the mocks of a test run do not collide with
// a developer's `npm run mock` (4010..4014) or another suite's servers.
import { createServer } from 'node:net';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePortBase(count: number, from = 4510, to = 5500): Promise<number> {
  for (let base = from; base + count <= to; base += 10) {
    const free = await Promise.all(Array.from({ length: count }, (_, i) => isFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports between ${from} and ${to}`);
}
