// `npm start`: opens the store (migrating it), starts the payout engine and webhook dispatcher, and serves
// the API (the assembly is start.ts). Stops cleanly on SIGINT and SIGTERM; payouts in flight resume at the next start.
//
// On a machine of several cores this process is, by default, the primary of several (primary.ts, the shape in
// primary-role.ts): HTTP processes and worker processes run this same file, told their role by the primary.
// With WEB_CONCURRENCY=1, one process does everything.
//
// What this file imports before it knows its role is kept small (the build splits the rest into chunks): a primary
// forks its first HTTP process before it loads anything else, so that process's start is the service's.
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { loadConfig } from './platform/config.js';
import { isSandbox } from './domain/sandbox.js';
import type { WorkerName } from './domain/services.js';
import { sendMessage } from './platform/process-messages.js';
import { isPostgresUrl } from './platform/store/store.js';
import { forkedRole, type ProcessMessage, processShape } from './primary-role.js';
import type { Started } from './start.js';

const config = loadConfig();
const role = forkedRole();
const where = isPostgresUrl(config.databaseUrl) ? 'PostgreSQL' : `SQLite at ${config.databaseUrl}`;

/** One line a person can act on, not a stack trace: which address, and why it could not be used. */
function cannotListen(code: string, message: string): void {
  const why = code === 'EADDRINUSE' ? 'the port is already in use; stop what holds it or set PORT' : message;
  console.error(`Cannot listen on ${config.host}:${config.port} (${code}): ${why}.`);
}

function announce(log: Logger, port: number | undefined, fields: Record<string, unknown>, processes?: string): void {
  log.info({ port, ...fields, environment: config.environment }, 'listening');
  // An operator must not read "accepted" as "sent": this build has no rail for production (DECISIONS).
  if (!isSandbox(config.environment))
    log.warn('production without a rail: payouts, payments and ACH and wire transfers stay in their first state, verifications pending');
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
  console.log(`Payout service listening on http://${host}:${port} (store: ${where}${processes ? `; ${processes}` : ''})`);
}

// Each role loads only its own code (the build splits it out): the primary neither the HTTP app nor the services.
const shape = role ? undefined : processShape(config);
if (shape) {
  const { runPrimary } = await import('./primary.js');
  const plural = (n: number, what: string) => `${n} ${what} process${n === 1 ? '' : 'es'}`;
  await runPrimary(config, shape, fileURLToPath(import.meta.url), {
    listening: (log, port) => announce(log, port, { ...shape }, `${plural(shape.web, 'HTTP')}, ${plural(shape.workers, 'worker')}`),
    cannotListen,
  });
} else {
  await runProcess();
}

async function runProcess(): Promise<void> {
  // A forked process loads its code while the primary prepares the store, which it opens only once told it is ready.
  const storeReady = role
    ? new Promise<void>((resolve) => {
        const onMessage = (message: unknown) => {
          if ((message as { storeReady?: unknown })?.storeReady !== true) return;
          process.off('message', onMessage);
          resolve();
        };
        process.on('message', onMessage);
        sendMessage(process, { awaitingStore: true } satisfies ProcessMessage);
      })
    : undefined;
  const [{ createLogger }, { CannotListen, start }, { workerNamed }, { primaryLimits }] = await Promise.all([
    import('./platform/log.js'),
    import('./start.js'),
    import('./domain/services.js'),
    import('./platform/limits/primary-limits.js'),
    role === 'worker' ? undefined : import('./http/app.js'),
  ]);
  await storeReady;
  const log = role ? createLogger(config.logLevel).child({ role, pid: process.pid }) : createLogger(config.logLevel);
  const send = (message: ProcessMessage) => sendMessage(process, message);
  // An HTTP process's wakes go to the workers through the primary, those of one turn in one message.
  const pending = new Set<WorkerName>();
  const wakeElsewhere = (worker: WorkerName) => {
    if (pending.size === 0)
      setImmediate(() => {
        send({ wake: [...pending] });
        pending.clear();
      });
    pending.add(worker);
  };
  let started: Started;
  try {
    started = await start({
      config,
      log,
      ...(role !== 'worker' ? { http: { port: config.port, host: config.host } } : {}),
      ...(role === undefined
        ? {}
        : {
            workers: role === 'worker' && config.runWorkers,
            migrate: false,
            // The embedded store's limits are the primary's; shared stores (PostgreSQL, Redis) count as for any instance.
            ...(isPostgresUrl(config.databaseUrl) || config.redisUrl ? {} : { limits: primaryLimits() }),
            ...(role === 'web' ? { wakeElsewhere } : {}),
          }),
    });
  } catch (err) {
    if (!(err instanceof CannotListen)) throw err;
    if (!role) {
      cannotListen(err.code, err.message);
      process.exit(1);
    }
    // The primary says it, once for all its HTTP processes, and stops the others.
    process.send!({ cannotListen: { code: err.code, message: err.message } } satisfies ProcessMessage, () => process.exit(1));
    return;
  }
  const { services, port } = started;
  if (role === 'worker')
    process.on('message', (message: unknown) => {
      const wake = (message as Partial<Extract<ProcessMessage, { wake: unknown }>>)?.wake;
      if (Array.isArray(wake)) for (const name of wake) workerNamed(services, name).wake();
    });
  if (role) {
    log.info({ port, store: started.store.dialect, limits: services.limits.kind }, 'process ready');
    send({ ready: { role, ...(port === undefined ? {} : { port }) } });
  } else announce(log, port, { store: started.store.dialect, limits: services.limits.kind });

  let stopping = false;
  async function stop(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    await started.stop();
    process.exit(0);
  }
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
