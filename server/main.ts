// `npm start`: opens the store (migrating it), starts the payout engine and webhook dispatcher, and serves
// the API. Stops cleanly on SIGINT and SIGTERM; payouts in flight resume at the next start.
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { createLogger } from './log.js';
import { createServices, workersOf } from './services.js';
import { isPostgresUrl, openStore } from './store/database.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const store = await openStore(config.databaseUrl);
const services = await createServices(store, config, log);
const app = createApp(services, config);
if (config.runWorkers) for (const worker of workersOf(services)) worker.start();

const server = app.listen(config.port, config.host, () => {
  const { port } = server.address() as AddressInfo;
  const where = isPostgresUrl(config.databaseUrl) ? 'PostgreSQL' : `SQLite at ${config.databaseUrl}`;
  log.info({ port, store: store.dialect }, 'listening');
  console.log(`Payout service listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port} (store: ${where})`);
});

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping');
  server.close();
  await Promise.all(workersOf(services).map((worker) => worker.stop()));
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
