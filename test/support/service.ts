// A real instance of the service for tests: the app of `npm start` on a free port, over a real store,
// with the payout engine and webhook dispatcher running. Nothing is mocked.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createLogger } from '../../server/log.js';
import { createServices, workersOf, type Services } from '../../server/services.js';
import { openStore } from '../../server/store/database.js';
import type { Resolver } from '../../server/webhooks/address-guard.js';

export interface RunningService {
  baseUrl: string;
  services: Services;
  stop(): Promise<void>;
}

export async function startService(databaseUrl: string, overrides: Partial<Config> = {}, options: { resolve?: Resolver; workers?: boolean } = {}): Promise<RunningService> {
  const config: Config = {
    ...loadConfig({}),
    databaseUrl,
    sandboxStepMs: 0,
    webhookAllowPrivate: true,
    webhookTimeoutMs: 2000,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    rateLimitPerMinute: 100_000,
    validateResponses: true,
    ...overrides,
  };
  const store = await openStore(config.databaseUrl, { poolSize: 5 });
  const services = await createServices(store, config, createLogger(config.logLevel), { resolve: options.resolve });
  const app = createApp(services, config);
  if (options.workers !== false) for (const worker of workersOf(services)) worker.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    services,
    async stop() {
      await Promise.all(workersOf(services).map((worker) => worker.stop()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    },
  };
}
