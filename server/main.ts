// `npm start`: opens the store (migrating it), starts the payout engine and webhook dispatcher, and serves
// the API (the assembly is start.ts). Stops cleanly on SIGINT and SIGTERM; payouts in flight resume at the next start.
import { loadConfig } from './platform/config.js';
import { createLogger } from './platform/log.js';
import { isSandbox } from './domain/sandbox.js';
import { CannotListen, start, type Started } from './start.js';
import { isPostgresUrl } from './platform/store/database.js';

const config = loadConfig();
const log = createLogger(config.logLevel);

let started: Started;
try {
  started = await start({ config, log, http: { port: config.port, host: config.host } });
} catch (err) {
  if (!(err instanceof CannotListen)) throw err;
  // One line a person can act on, not a stack trace: which address, and why it could not be used.
  const { code } = err;
  const why = code === 'EADDRINUSE' ? 'the port is already in use; stop what holds it or set PORT' : err.message;
  console.error(`Cannot listen on ${config.host}:${config.port} (${code}): ${why}.`);
  process.exit(1);
}
const { store, services, port } = started;
const where = isPostgresUrl(config.databaseUrl) ? 'PostgreSQL' : `SQLite at ${config.databaseUrl}`;
log.info({ port, store: store.dialect, limits: services.limits.kind, environment: config.environment }, 'listening');
// An operator must not read "accepted" as "sent": this build has no rail for production (DECISIONS).
if (!isSandbox(config.environment))
  log.warn('production without a rail: payouts, payments and ACH and wire transfers stay in their first state, verifications pending');
console.log(`Payout service listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port} (store: ${where})`);

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
