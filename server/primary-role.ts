// What a process of `npm start` is (primary.ts): the primary, an HTTP process or a worker process, told by the
// variable the primary sets when it forks one; and the messages between them. Apart from primary.ts so that every
// process can ask without loading the primary's code.
import type { WorkerName } from './domain/services.js';
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

/**
 * Whether `npm start` runs as several processes with this configuration: WEB_CONCURRENCY above 1, on a store
 * processes can share (an in-memory SQLite database is its process's alone).
 */
export const runsSeveralProcesses = (config: Config): boolean =>
  config.webConcurrency > 1 && !/^(sqlite:(\/\/)?)?:memory:$/.test(config.databaseUrl);
