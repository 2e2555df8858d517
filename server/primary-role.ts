// What a process of `npm start` is (primary.ts): the primary, an HTTP process or a worker process, told by the
// variable the primary sets when it forks one; and the messages between them. Apart from primary.ts so that every
// process can ask without loading the primary's code.
import type { WorkerName } from './domain/services.js';
import { availableParallelism } from 'node:os';
import type { Config } from './platform/config.js';

/** What a forked process is, in the variable the primary sets for it. */
export const roleVariable = 'PAYOUT_SERVICE_ROLE';
export type Role = 'web' | 'worker';

/** Messages between the primary and its processes (besides the limits' questions and answers). */
export type ProcessMessage =
  | { awaitingStore: true }
  | { storeReady: true }
  | { ready: { role: Role; port?: number } }
  | { cannotListen: { code: string; message: string } }
  | { wake: WorkerName[] };

export const isMessage = (m: unknown): m is ProcessMessage => typeof m === 'object' && m !== null;

/** Whether this process is a forked one, and which. */
export function forkedRole(): Role | undefined {
  const role = process.env[roleVariable];
  return role === 'web' || role === 'worker' ? role : undefined;
}

/** The processes `npm start` runs besides its primary, or undefined for one process doing everything. */
export interface ProcessShape {
  web: number;
  workers: number;
}

/**
 * The processes of `npm start` with this configuration on a machine of `cores` (README, "Processes"):
 * - WEB_CONCURRENCY unset: one process per core, WORKER_CONCURRENCY of them worker processes and the rest (at
 *   least one) HTTP processes (two cores: one of each); one process on one core.
 * - WEB_CONCURRENCY=1: one process doing everything. WEB_CONCURRENCY=n: n HTTP processes beside the worker processes.
 * - An in-memory SQLite database is its process's alone: one process.
 * Measured on two cores (bench/README.md, "Every core"): one HTTP and one worker process carried more payouts than
 * two HTTP processes beside the worker process, which left three busy processes to share two cores.
 */
export function processShape(config: Config, cores = availableParallelism()): ProcessShape | undefined {
  if (/^(sqlite:(\/\/)?)?:memory:$/.test(config.databaseUrl)) return undefined;
  const workers = config.runWorkers ? config.workerConcurrency : 0;
  if (config.webConcurrency !== undefined) return config.webConcurrency > 1 ? { web: config.webConcurrency, workers } : undefined;
  if (cores < 2) return undefined;
  return { web: Math.max(1, cores - workers), workers };
}

/** A process that served this long after it was ready, then died, is restarted at once; one dying sooner (a crash
 * loop: it dies as it starts, or on its first requests) waits longer each time. Counted from ready, not from the
 * fork, so a start's own seconds are not mistaken for service; 3 s rather than longer because each restart delay
 * is downtime: with one HTTP process (two cores), the service answers nothing until its replacement listens
 * (test/reliability/chaos.test.ts kills one every few seconds and holds the service to answering within 5 s). */
export const healthyAfterMs = 3_000;
/** The longest pause before a restart (the pause doubles from 100 ms with each quick death). */
export const maxRestartDelayMs = 5_000;
