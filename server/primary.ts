// The primary process of `npm start` when it runs several (primary-role.ts `processShape`): it prepares the store (the
// migrations and the signing key, once, before any other process opens it), then forks the HTTP processes
// (node:cluster: they share the port, the primary hands each new connection to the next one in turn) and the
// worker processes (the payout, payment and transfer engines and the webhook dispatcher). It serves no request
// itself. It keeps the embedded store's limits (platform/limits/primary-limits.ts), passes each HTTP process's
// wakes on to the workers (a write starts its engine at once, not at the next poll), restarts a process that
// dies (every message to a child goes through platform/process-messages.ts, which never throws), and on SIGTERM or SIGINT stops them all, each in its own order (start.ts), before it exits.
//
// Every process opens the store itself. On PostgreSQL they are instances like any other (row locks, SKIP
// LOCKED, advisory locks). On the embedded store they share the SQLite file in WAL mode: reads never wait, and
// each transaction begins immediate (store/database.ts), so the transactions of all processes run one at a time,
// as one process's did (README, "Processes": why the file is shared rather than writes handed to one writer).
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './platform/config.js';
import type { LimitAnswer, LimitQuestion } from './platform/limits/primary-limits.js';
import { sendMessage } from './platform/process-messages.js';
import { isPostgresUrl } from './platform/store/store.js';
import {
  healthyAfterMs,
  isMessage,
  maxRestartDelayMs,
  type ProcessMessage,
  type ProcessShape,
  type Role,
  roleVariable,
} from './primary-role.js';

interface Child {
  role: Role;
  worker: Worker;
  ready: boolean;
  /** When it said it was ready. */
  readyAt?: number;
  /** Started after another of its role died (a failure to start is then not the service's failure to start). */
  restart: boolean;
  /** It asked whether the store is ready (it waits for the answer before opening it). */
  awaitingStore: boolean;
}

export interface PrimaryEvents {
  /** Every HTTP process listens: the port they share (and the primary's log). */
  listening(log: Logger, port: number): void;
  /** An HTTP process could not listen (the same for all of them): said once; the primary stops the others and exits 1. */
  cannotListen(code: string, message: string): void;
}

/**
 * Runs the primary until SIGTERM or SIGINT (then exits 0), or until a process fails before it is ready (exits
 * 1). `exec` is the entry the processes run (this build's main.js).
 */
export async function runPrimary(config: Config, shape: ProcessShape, exec: string, events: PrimaryEvents): Promise<void> {
  // Set once the primary's own code is loaded, which the first HTTP process's start does not wait for: its first
  // message (asking whether the store is ready) is answered once it is.
  let log: Logger | undefined;
  let limits: { answer(question: LimitQuestion): Promise<LimitAnswer> } | undefined;
  let isLimitQuestion: (message: unknown) => message is LimitQuestion = (_m): _m is LimitQuestion => false;
  const { web: webConcurrency, workers } = shape;
  const children = new Set<Child>();
  let stopping = false;
  let announced = false;
  let storeReady = false;
  let failures = 0;
  let resolveStopped: () => void;
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });

  cluster.setupPrimary({ exec, args: [] });

  const fork = (role: Role, restart = false): void => {
    const worker = cluster.fork({ [roleVariable]: role });
    const child: Child = { role, worker, ready: false, restart, awaitingStore: false };
    children.add(child);
    worker.on('message', (message: unknown) => {
      if (isLimitQuestion(message)) {
        void limits?.answer(message).then((answer) => {
          sendMessage(worker, answer);
        });
        return;
      }
      if (!isMessage(message)) return;
      if ('wake' in message) {
        for (const other of children) if (other.role === 'worker' && other !== child) sendMessage(other.worker, message);
      } else if ('awaitingStore' in message) {
        child.awaitingStore = true;
        if (storeReady) sendMessage(worker, { storeReady: true } satisfies ProcessMessage);
      } else if ('ready' in message) {
        child.ready = true;
        child.readyAt = Date.now();
        const web = [...children].filter((c) => c.role === 'web');
        // The first HTTP process starts alone, so it has the cores to itself and the service answers sooner;
        // the others follow once it listens.
        if (!announced && role === 'web' && web.length === 1) for (let i = 1; i < webConcurrency; i++) fork('web');
        if (!announced && web.length === webConcurrency && web.every((c) => c.ready)) {
          announced = true;
          events.listening(log!, message.ready.port ?? 0);
          // The worker processes start once the HTTP ones are up: at start the HTTP processes have the cores to
          // themselves, so the service answers sooner (what a payout created meanwhile waits for is the workers).
          for (let i = 0; i < workers; i++) fork('worker');
        }
      } else if ('cannotListen' in message && !stopping) {
        events.cannotListen(message.cannotListen.code, message.cannotListen.message);
        void stopAll(1);
      }
    });
    // A failure of the channel itself (a write to a child that has just died): its 'exit' follows and restarts it.
    worker.on('error', (err) => log?.warn({ role, pid: worker.process.pid, err }, 'a process channel failed'));
    worker.on('exit', (code, signal) => {
      children.delete(child);
      if (stopping) {
        if (children.size === 0) resolveStopped();
        return;
      }
      if (!child.ready && !child.restart) {
        // It failed while the service started (its error is on stderr): the next would too. Stop, as one process would.
        log?.error({ role, pid: worker.process.pid, code, signal }, 'a process failed before it was ready; stopping');
        void stopAll(1);
        return;
      }
      failures = child.readyAt !== undefined && Date.now() - child.readyAt >= healthyAfterMs ? 0 : failures + 1;
      const delay = failures === 0 ? 0 : Math.min(maxRestartDelayMs, 100 * 2 ** (failures - 1));
      log?.warn({ role, pid: worker.process.pid, code, signal, restartInMs: delay }, 'process died; starting another');
      setTimeout(() => {
        if (!stopping) fork(role, true);
      }, delay);
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
      if (!stopping) log?.info({ signal }, 'stopping');
      void stopAll(0);
    });

  // The first HTTP process loads its code while the store is prepared, and opens it only when told it is ready.
  fork('web');
  const [{ createLogger }, { openStore }, { loadSigningKey }, primaryLimits] = await Promise.all([
    import('./platform/log.js'),
    import('./platform/store/database.js'),
    import('./domain/auth/signing-keys.js'),
    import('./platform/limits/primary-limits.js'),
  ]);
  log = createLogger(config.logLevel);
  isLimitQuestion = primaryLimits.isLimitQuestion;
  if (!isPostgresUrl(config.databaseUrl) && !config.redisUrl) limits = new primaryLimits.PrimaryLimitCounts();
  // The store's migrations and the signing key, before any process opens it: processes starting together on an
  // empty store would otherwise each migrate it (SQLite has no lock for that) and race for the key.
  try {
    const store = await openStore(config.databaseUrl, { poolSize: 1, environment: config.environment });
    try {
      await loadSigningKey(store);
    } finally {
      await store.close();
    }
  } catch (err) {
    log.error({ err }, 'the store could not be opened; stopping');
    await stopAll(1);
  }
  storeReady = true;
  for (const child of children) if (child.awaitingStore) sendMessage(child.worker, { storeReady: true } satisfies ProcessMessage);
  log.info({ web: webConcurrency, workers }, 'processes started');
}
