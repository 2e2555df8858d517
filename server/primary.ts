// The primary process of `npm start` when it runs several (WEB_CONCURRENCY > 1): it prepares the store (the
// migrations and the signing key, once, before any other process opens it), then forks the HTTP processes
// (node:cluster: they share the port, the primary hands each new connection to the next one in turn) and the
// worker processes (the payout, payment and transfer engines and the webhook dispatcher). It serves no request
// itself. It keeps the embedded store's limits (platform/limits/primary-limits.ts), passes each HTTP process's
// wakes on to the workers (a write starts its engine at once, not at the next poll), restarts a process that
// dies, and on SIGTERM or SIGINT stops them all, each in its own order (start.ts), before it exits.
//
// Every process opens the store itself. On PostgreSQL they are instances like any other (row locks, SKIP
// LOCKED, advisory locks). On the embedded store they share the SQLite file in WAL mode: reads never wait, and
// each transaction begins immediate (store/database.ts), so the transactions of all processes run one at a time,
// as one process's did (README, "Processes": why the file is shared rather than writes handed to one writer).
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { loadSigningKey } from './domain/auth/signing-keys.js';
import type { WorkerName } from './domain/services.js';
import type { Config } from './platform/config.js';
import { isLimitQuestion, PrimaryLimitCounts } from './platform/limits/primary-limits.js';
import { isPostgresUrl, openStore } from './platform/store/database.js';

/** What a forked process is, in the variable the primary sets for it. */
export const roleVariable = 'PAYOUT_SERVICE_ROLE';
export type Role = 'web' | 'worker';

/** Messages between the primary and its processes (besides the limits' questions and answers). */
export type ProcessMessage =
  | { ready: { role: Role; port?: number } }
  | { cannotListen: { code: string; message: string } }
  | { wake: WorkerName[] };

const isMessage = (m: unknown): m is ProcessMessage => typeof m === 'object' && m !== null;

/** Whether this process is a forked one, and which. */
export function forkedRole(): Role | undefined {
  const role = process.env[roleVariable];
  return role === 'web' || role === 'worker' ? role : undefined;
}

/** Whether `npm start` runs as several processes with this configuration. */
export const runsSeveralProcesses = (config: Config): boolean => config.webConcurrency > 1;

/** A process that lived this long before it died is restarted at once; one dying sooner waits longer each time. */
const healthyAfterMs = 10_000;
const maxRestartDelayMs = 5_000;

interface Child {
  role: Role;
  worker: Worker;
  startedAt: number;
  ready: boolean;
}

export interface PrimaryEvents {
  /** Every HTTP process listens: the port they share. */
  listening(port: number): void;
  /** An HTTP process could not listen (the same for all of them): said once; the primary stops the others and exits 1. */
  cannotListen(code: string, message: string): void;
}

/**
 * Runs the primary until SIGTERM or SIGINT (then exits 0), or until a process fails before it is ready (exits
 * 1). `exec` is the entry the processes run (this build's main.js).
 */
export async function runPrimary(config: Config, log: Logger, exec: string, events: PrimaryEvents): Promise<void> {
  // The store's migrations and the signing key, before any process opens it: processes starting together on an
  // empty store would otherwise each migrate it (SQLite has no lock for that) and race for the key.
  const store = await openStore(config.databaseUrl, { poolSize: 1 });
  try {
    await loadSigningKey(store);
  } finally {
    await store.close();
  }
  const limits = !isPostgresUrl(config.databaseUrl) && !config.redisUrl ? new PrimaryLimitCounts() : undefined;
  const workers = config.runWorkers ? config.workerConcurrency : 0;
  const children = new Set<Child>();
  let stopping = false;
  let announced = false;
  let failures = 0;
  let resolveStopped: () => void;
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });

  cluster.setupPrimary({ exec, args: [] });

  const fork = (role: Role): void => {
    const worker = cluster.fork({ [roleVariable]: role });
    const child: Child = { role, worker, startedAt: Date.now(), ready: false };
    children.add(child);
    worker.on('message', (message: unknown) => {
      if (isLimitQuestion(message)) {
        void limits?.answer(message).then((answer) => {
          if (worker.isConnected()) worker.send(answer);
        });
        return;
      }
      if (!isMessage(message)) return;
      if ('wake' in message) {
        for (const other of children)
          if (other.role === 'worker' && other !== child && other.worker.isConnected()) other.worker.send(message);
      } else if ('ready' in message) {
        child.ready = true;
        const web = [...children].filter((c) => c.role === 'web');
        if (!announced && message.ready.port !== undefined && web.length === config.webConcurrency && web.every((c) => c.ready)) {
          announced = true;
          events.listening(message.ready.port);
        }
      } else if ('cannotListen' in message && !stopping) {
        events.cannotListen(message.cannotListen.code, message.cannotListen.message);
        void stopAll(1);
      }
    });
    worker.on('exit', (code, signal) => {
      children.delete(child);
      if (stopping) {
        if (children.size === 0) resolveStopped();
        return;
      }
      if (!child.ready && !announced) {
        // It failed while the service started (its error is on stderr): the next would too. Stop, as one process would.
        log.error({ role, pid: worker.process.pid, code, signal }, 'a process failed before it was ready; stopping');
        void stopAll(1);
        return;
      }
      failures = Date.now() - child.startedAt >= healthyAfterMs ? 0 : failures + 1;
      const delay = failures === 0 ? 0 : Math.min(maxRestartDelayMs, 100 * 2 ** (failures - 1));
      log.warn({ role, pid: worker.process.pid, code, signal, restartInMs: delay }, 'process died; starting another');
      setTimeout(() => {
        if (!stopping) fork(role);
      }, delay).unref();
    });
  };

  let exitCode = 0;
  const stopAll = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (children.size === 0) resolveStopped();
    // Each process stops in its own order (start.ts): no new connections, its workers, its connections, the store.
    for (const child of children) child.worker.process.kill('SIGTERM');
    await stopped;
    process.exit(exitCode);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (!stopping) log.info({ signal }, 'stopping');
      void stopAll(0);
    });

  for (let i = 0; i < config.webConcurrency; i++) fork('web');
  for (let i = 0; i < workers; i++) fork('worker');
  log.info({ web: config.webConcurrency, workers }, 'processes started');
}
