// A real instance of the service for tests: the assembly of `npm start` (server/start.ts) on a free port, over a
// real store, with the payout engine and webhook dispatcher running. Nothing is mocked. Suites start one through
// `useService` (use-service.ts); startService is for a suite that must hold several or restart one.
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig, type Config } from '../../server/platform/config.js';
import { createLogger } from '../../server/platform/log.js';
import type { Services } from '../../server/domain/services.js';
import { start } from '../../server/start.js';
import type { Resolver } from '../../server/domain/webhooks/address-guard.js';
import { recordProblems, type ProblemRecord } from './problem-recorder.js';

export interface RunningService {
  baseUrl: string;
  services: Services;
  /** Log lines of write responses that broke the contract (sent all the same); `stop()` fails when any. */
  contractViolations: string[];
  /** Every log line at warn level or above, as written (JSON). */
  warnings: string[];
  /** Every log line written (JSON): warn and above, or from `options.logLevel` up when a suite asks for more. */
  logs: string[];
  /** Every problem answered; `stop()` fails when one is outside the catalogue or its operation's list. */
  problems: ProblemRecord;
  stop(): Promise<void>;
}

/** Warn and error lines are kept (and watched for contract violations); lines are shown only with TEST_LOG_LEVEL. */
function watchedLogger(level: string, violations: string[], warnings: string[], logs: string[], keepFrom?: string) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      const line = String(chunk);
      if (line.includes('"msg":"response violates the contract"')) violations.push(line);
      if (/"level":(4|5|6)\d/.test(line)) warnings.push(line);
      logs.push(line);
      if (level !== 'silent') process.stdout.write(line);
      done();
    },
  });
  const shown = level === 'silent' ? 'warn' : level;
  return createLogger(keepFrom && pino.levels.values[keepFrom]! < pino.levels.values[shown]! ? keepFrom : shown, sink);
}

export async function startService(
  databaseUrl: string,
  overrides: Partial<Config> = {},
  options: {
    resolve?: Resolver;
    workers?: boolean;
    /** The clock of tokens (the limits count on Date.now). */
    now?: () => number;
    /** Keep log lines from this level up in `logs` (e.g. 'info' to see audit lines); warn by default. */
    logLevel?: string;
  } = {},
): Promise<RunningService> {
  const config: Config = {
    ...loadConfig({}),
    databaseUrl,
    sandboxStepMs: 0,
    webhookAllowPrivate: true,
    // Generous: a receiver in the test's own process may wait seconds for a loaded 2-core machine (a 503 read as a
    // timeout fails a test for the machine's speed). Suites about slow receivers set their own.
    webhookTimeoutMs: 10_000,
    // The same for a request's own deadlines: a test process starved for seconds reads a request's headers only after
    // the header timer fired (a 408 for a request sent at once). The suites about slow senders set their own.
    requestTimeoutMs: 120_000,
    headersTimeoutMs: 60_000,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    rateLimitPerMinute: 100_000,
    validateResponses: true,
    ...overrides,
  };
  const contractViolations: string[] = [];
  const warnings: string[] = [];
  const logs: string[] = [];
  const log = watchedLogger(config.logLevel, contractViolations, warnings, logs, options.logLevel);
  // The assembly of `npm start` (server/start.ts), on a free loopback port, with a small pool per suite.
  const started = await start({
    config,
    log,
    http: { port: 0, host: '127.0.0.1' },
    workers: options.workers !== false,
    poolSize: 5,
    resolve: options.resolve,
    now: options.now,
  });
  const server = started.server!;
  const problems = recordProblems(server, config.environment);
  return {
    baseUrl: `http://127.0.0.1:${started.port}`,
    services: started.services,
    contractViolations,
    warnings,
    logs,
    problems,
    async stop() {
      await started.stop();
      if (contractViolations.length > 0) throw new Error(`Responses broke the contract:\n${contractViolations.join('')}`);
      if (problems.outside.length > 0)
        throw new Error(`Problems the contract does not allow where they were answered:\n${problems.outside.join('\n')}`);
    },
  };
}
