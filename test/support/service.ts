// A real instance of the service for tests: the app of `npm start` on a free port, over a real store,
// with the payout engine and webhook dispatcher running. Nothing is mocked.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createApp } from '../../server/app.js';
import { listen } from '../../server/http/listen.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createLogger } from '../../server/log.js';
import { createServices, workersOf, type Services } from '../../server/services.js';
import { openStore } from '../../server/store/database.js';
import type { Resolver } from '../../server/webhooks/address-guard.js';

export interface RunningService {
  baseUrl: string;
  services: Services;
  /** Log lines of write responses that broke the contract (sent all the same); `stop()` fails when any. */
  contractViolations: string[];
  stop(): Promise<void>;
}

/** Error-level log lines are watched for contract violations; the rest is shown only with TEST_LOG_LEVEL. */
function watchedLogger(level: string, violations: string[]) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      const line = String(chunk);
      if (line.includes('"msg":"response violates the contract"')) violations.push(line);
      if (level !== 'silent') process.stdout.write(line);
      done();
    },
  });
  return createLogger(level === 'silent' ? 'error' : level, sink);
}

export async function startService(
  databaseUrl: string,
  overrides: Partial<Config> = {},
  options: { resolve?: Resolver; workers?: boolean /** The clock of tokens and token-request limits. */; now?: () => number } = {},
): Promise<RunningService> {
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
  const contractViolations: string[] = [];
  const services = await createServices(store, config, watchedLogger(config.logLevel, contractViolations), {
    resolve: options.resolve,
    now: options.now,
  });
  const app = createApp(services, config);
  if (options.workers !== false) for (const worker of workersOf(services)) worker.start();
  const server: Server = await listen(app, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    services,
    contractViolations,
    async stop() {
      await Promise.all(workersOf(services).map((worker) => worker.stop()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      if (contractViolations.length > 0) throw new Error(`Responses broke the contract:\n${contractViolations.join('')}`);
    },
  };
}
