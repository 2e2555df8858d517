// `npm start` as a process (scripts/build/start-server.mjs, what it runs: the built server, rebuilt first if server/
// changed): on a port another process holds, it exits 1 with one line naming the port and EADDRINUSE
// (server/main.ts), instead of a stack trace, in one process and as a primary of several (said once for all). Spawns the server, so it runs in the slow tier.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServerArgs } from '../../scripts/build/start-command.js';

const shapes = [
  { shape: 'one process (an in-memory store is one process alone)', env: { DATABASE_URL: ':memory:' } },
  { shape: 'two HTTP processes', env: { WEB_CONCURRENCY: '2' } },
];

describe.each(shapes)('npm start on a port in use, $shape', ({ env }) => {
  it('exits non-zero with one line naming the port and EADDRINUSE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'startup-'));
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, startServerArgs(), {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: join(dir, 'store.sqlite'),
          RUN_WORKERS: 'false',
          LOG_LEVEL: 'warn',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += String(chunk)));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(String(port));
      expect(lines[0]).toContain('EADDRINUSE');
    } finally {
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("npm start's memory settings", () => {
  it('are V8 flags this node accepts, before scripts/build/start-server.mjs', async () => {
    const args = startServerArgs();
    expect(args.at(-1)).toBe('scripts/build/start-server.mjs');
    expect(args.slice(0, -1)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--max-semi-space-size=\d+$/), expect.stringMatching(/^--max-old-space-size=\d+$/)]),
    );
    const child = spawn(process.execPath, [...args.slice(0, -1), '-e', 'process.exit(0)'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
