// The one assembly of a process: the store (opened and migrated), the services over it, the workers and, when
// asked, the HTTP listener; and the one way to take them down again, in order. `npm start` (main.ts), the admin CLI
// (without HTTP or workers) and the tests' services (test/support/service.ts) are all built here.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './platform/config.js';
import { createServices, type Services, type WorkerName, workersOf } from './domain/services.js';
import type { Limits } from './platform/limits/limits.js';
import { openStore, type Store } from './platform/store/database.js';
import type { Resolver } from './domain/webhooks/address-guard.js';

/** The listener could not be bound (EADDRINUSE, EACCES, ...); the store and limits are closed again. */
export class CannotListen extends Error {
  constructor(
    readonly code: string,
    readonly reason: Error,
  ) {
    super(reason.message, { cause: reason });
    this.name = 'CannotListen';
  }
}

export interface StartOptions {
  config: Config;
  log: Logger;
  /** Serve the API on this address (port 0: a free one). Without it, no app and no listener are made. */
  http?: { port: number; host: string };
  /** Run the payout, payment and transfer engines and the webhook dispatcher; `config.runWorkers` when unset. */
  workers?: boolean;
  /** Connections of the PostgreSQL pool (the store's default when unset). */
  poolSize?: number;
  /** How webhook targets are looked up (tests resolve every name to loopback). */
  resolve?: Resolver;
  /** The clock of token issue and expiry (tests move it). */
  now?: () => number;
  /** Migrate the store on open (default true; a process of several finds it migrated by the primary). */
  migrate?: boolean;
  /** In a process of several (server/primary.ts): where the limits count and who hears of wakes (createServices). */
  limits?: Limits;
  wakeElsewhere?: (worker: WorkerName) => void;
}

export interface Started {
  store: Store;
  services: Services;
  /** The listener, when `http` was given. */
  server?: Server;
  /** The port listened on, when `http` was given. */
  port?: number;
  /**
   * Stops in order: no new connections, the workers (each finishes its step), the connections left, the request log's
   * last rows, the limits, the store. Payouts, payments and transfers in flight resume at the next start. Calling it again waits for the
   * first call.
   */
  stop(): Promise<void>;
}

export async function start(options: StartOptions): Promise<Started> {
  const { config, log } = options;
  const store = await openStore(config.databaseUrl, {
    environment: config.environment,
    namedStatements: config.databaseNamedStatements,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.migrate === undefined ? {} : { migrate: options.migrate }),
  });
  let services: Services;
  try {
    const { resolve, now, limits, wakeElsewhere } = options;
    services = await createServices(store, config, log, { resolve, now, limits, wakeElsewhere });
  } catch (err) {
    await store.close();
    throw err;
  }
  let server: Server | undefined;
  if (options.http) {
    // Loaded here, not with this module: a process without HTTP (a worker process, the admin CLI) never loads Express.
    const [{ createApp }, { listen }] = await Promise.all([import('./http/app.js'), import('./http/listen.js')]);
    try {
      server = await listen(createApp(services, config), options.http.port, options.http.host, config);
    } catch (err) {
      // Nothing started yet but the limits and the store: close them so the caller can report and exit.
      await services.limits.close();
      await store.close();
      throw new CannotListen((err as NodeJS.ErrnoException).code ?? 'error', err as Error);
    }
  }
  // The request log is recorded where requests are served, so it is flushed there (console/request-logs.ts).
  if (server) services.requestLogs.start();
  const workers = (options.workers ?? config.runWorkers) ? workersOf(services) : [];
  for (const worker of workers) worker.start();

  let stopped: Promise<void> | undefined;
  const stopInOrder = async () => {
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
    // Every worker is stopped, started or not: stopping one that never ran is a no-op.
    await Promise.all(workersOf(services).map((worker) => worker.stop()));
    if (server) {
      server.closeAllConnections();
      await closed;
      await services.requestLogs.close();
    }
    await services.limits.close();
    await store.close();
  };
  return {
    store,
    services,
    server,
    port: server ? (server.address() as AddressInfo).port : undefined,
    stop: () => {
      stopped ??= stopInOrder();
      return stopped;
    },
  };
}
