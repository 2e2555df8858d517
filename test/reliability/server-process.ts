// The real server as a child process, exactly as `npm start` runs it (scripts/build/start-server.mjs: the built
// dist/server/main.js, rebuilt first if server/ changed), so that a test can SIGKILL it like a crash would. Every process started here is tracked
// and `killAll()` ends the ones still running, so a failing test leaves nothing behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startServerArgs } from '../../scripts/build/start-command.js';

const root = new URL('../..', import.meta.url).pathname;
const running = new Set<ChildProcess>();

export interface ServerEnv {
  DATABASE_URL: string;
  SANDBOX_STEP_MS: string;
  RUN_WORKERS?: string;
  LOG_LEVEL?: string;
  [name: string]: string | undefined;
}

export interface ServerProcess {
  port: number;
  baseUrl: string;
  pid: number;
  /** Counts of the JSON log lines by their `msg`, for what a test wants to know of this instance's work. */
  logged: Map<string, number>;
  /** The JSON log lines (of requests and deliveries the first 50,000; every other), for a test that asks which of
   * the instance's processes did what. */
  entries: Record<string, unknown>[];
  /** The log lines at level error or above (the first 20). */
  failures: string[];
  /** The last lines the process wrote to stderr (for failure messages). */
  errors(): string;
  /** Sends `signal` and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited(): Promise<number | string>;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function waitForExit(child: ChildProcess): Promise<void> {
  return exited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts the server on `port` (0: any free port) and resolves once it listens. */
export async function startServerProcess(env: ServerEnv, port = 0, startTimeoutMs = 45_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, startServerArgs(), {
    cwd: root,
    env: {
      ...process.env,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));

  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr.push(line);
    if (stderr.length > 50) stderr.shift();
  });
  const logged = new Map<string, number>();
  const entries: Record<string, unknown>[] = [];
  const failures: string[] = [];
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not listen within ${startTimeoutMs} ms:\n${stderr.join('\n')}`)),
      startTimeoutMs,
    );
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}) before listening:\n${stderr.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const started = /^Payout service listening on http:\/\/[^:]+:(\d+)/.exec(line);
      if (started) {
        clearTimeout(timer);
        resolve(Number(started[1]));
        return;
      }
      if (!line.startsWith('{')) return;
      try {
        const entry = JSON.parse(line) as { msg?: unknown; level?: unknown };
        const msg = String(entry.msg);
        // The per-request and per-delivery lines are capped (a load writes hundreds of thousands); every other
        // line (processes starting, dying, ready) is kept, so a long run still sees each restart.
        if ((msg !== 'request' && msg !== 'webhook delivery') || entries.length < 50_000) entries.push(entry);
        logged.set(msg, (logged.get(msg) ?? 0) + 1);
        if (Number(entry.level) >= 50 && failures.length < 20) failures.push(line);
      } catch {
        // not a log line
      }
    });
  });
  let actualPort: number;
  try {
    actualPort = await listening;
  } catch (err) {
    child.kill('SIGKILL');
    await waitForExit(child);
    throw err;
  }
  return {
    port: actualPort,
    baseUrl: `http://127.0.0.1:${actualPort}`,
    pid: child.pid!,
    logged,
    entries,
    failures,
    errors: () => stderr.join('\n'),
    async kill(signal) {
      if (!exited(child)) child.kill(signal);
      await waitForExit(child);
    },
    async exited() {
      await waitForExit(child);
      return child.exitCode ?? child.signalCode!;
    },
  };
}

/** SIGKILLs every server process this module started that is still running. */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      child.kill('SIGKILL');
      return waitForExit(child);
    }),
  );
}
