// `npm start`: opens the store (migrating it), starts the payout engine and webhook dispatcher, and serves
// the API. Stops cleanly on SIGINT and SIGTERM; payouts in flight resume at the next start.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { listen } from './http/listen.js';
import { createLogger } from './log.js';
import { createServices, workersOf } from './services.js';
import { isPostgresUrl, openStore } from './store/database.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const store = await openStore(config.databaseUrl);
const services = await createServices(store, config, log);
const app = createApp(services, config);

let server: Server;
try {
  server = await listen(app, config.port, config.host, config);
} catch (err) {
  // One line a person can act on, not a stack trace: which address, and why it could not be used.
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  const why = code === 'EADDRINUSE' ? 'the port is already in use; stop what holds it or set PORT' : (err as Error).message;
  console.error(`Cannot listen on ${config.host}:${config.port} (${code}): ${why}.`);
  await services.limits.close();
  await store.close();
  process.exit(1);
}
if (config.runWorkers) for (const worker of workersOf(services)) worker.start();
const { port } = server.address() as AddressInfo;
const where = isPostgresUrl(config.databaseUrl) ? 'PostgreSQL' : `SQLite at ${config.databaseUrl}`;
log.info({ port, store: store.dialect, limits: services.limits.kind, environment: config.environment }, 'listening');
// An operator must not read "accepted" as "sent": this build has no rail for production (DECISIONS).
if (config.environment === 'production')
  log.warn('production without a rail: payouts, payments and ACH and wire transfers stay in their first state, verifications pending');
console.log(`Payout service listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port} (store: ${where})`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping');
  server.close();
  await Promise.all(workersOf(services).map((worker) => worker.stop()));
  await services.limits.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
