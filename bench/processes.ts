// Child processes of the benchmark: the real service (scripts/build/start-server.mjs, exactly what `npm start` runs:
// the built dist/server/main.js, rebuilt first if server/ changed) and the bare Express baseline, each in its own process so that neither shares an event loop with the load
// generator. Every child is stopped with SIGTERM, then SIGKILL after a grace period, so a run never leaks one.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/mock/free-ports.js';
import { startServerArgs } from '../scripts/build/start-command.js';

export const root = fileURLToPath(new URL('..', import.meta.url));

export interface Child {
  url: string;
  process: ChildProcess;
  /** Milliseconds from spawn to the first answered health check. */
  startMs: number;
  stop(): Promise<void>;
}

/** Polls `url` until it answers 200 (every 10 ms, at most `timeoutMs`). */
export async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${url}: the process ended (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(killer);
}

async function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, port: number, healthPath: string): Promise<Child> {
  const started = performance.now();
  const stderr: string[] = [];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 50) stderr.shift();
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url + healthPath, child);
  } catch (err) {
    await stopChild(child);
    throw new Error(`${(err as Error).message}\n${stderr.join('')}`);
  }
  return { url, process: child, startMs: performance.now() - started, stop: () => stopChild(child) };
}

export interface ServiceEnv {
  DATABASE_URL: string;
  /** HTTP processes (1 unless given: the parts that measure one process; '' for npm start's default shape). */
  WEB_CONCURRENCY?: string;
  WORKER_CONCURRENCY?: string;
  SANDBOX_STEP_MS?: string;
  RUN_WORKERS?: string;
  LOG_LEVEL?: string;
  VALIDATE_RESPONSES?: string;
}

/**
 * The service as deployed (NODE_ENV=production: response validation off, info logs) with the rate limit
 * raised out of the way and private webhook targets allowed (the receiver is on 127.0.0.1), in one process unless
 * `WEB_CONCURRENCY` says otherwise.
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server process there when it stops, BENCH_HEAP_PROF=<dir> a
 * sampled allocation profile (where the collector's work comes from).
 */
export async function startService(env: ServiceEnv): Promise<Child> {
  const port = await freePort();
  const profile = [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
    ...(process.env.BENCH_HEAP_PROF ? ['--heap-prof', '--heap-prof-dir', process.env.BENCH_HEAP_PROF] : []),
  ];
  return startChild(
    process.execPath,
    [...profile, ...startServerArgs()],
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SANDBOX_STEP_MS: '2000',
      WEB_CONCURRENCY: '1',
      ...env,
    },
    port,
    '/health',
  );
}

/** The bare Express app of baseline-server.ts. */
export async function startBaseline(options: { validated?: boolean } = {}): Promise<Child> {
  const port = await freePort();
  const env = { NODE_ENV: 'production', ...(options.validated ? { VALIDATED: '1' } : {}) };
  return startChild(process.execPath, ['--import', 'tsx', 'bench/baseline-server.ts'], env, port, '/fixed');
}

/** The bare pipeline of bare-pipeline-server.ts on `databaseUrl`, in `processes` processes, delivering to `receiverUrl`. */
export async function startBarePipeline(databaseUrl: string, receiverUrl: string, processes: number): Promise<Child> {
  const port = await freePort();
  return startChild(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-pipeline-server.ts'],
    { NODE_ENV: 'production', DATABASE_URL: databaseUrl, RECEIVER_URL: receiverUrl, PROCESSES: String(processes) },
    port,
    '/health',
  );
}
