// Configuration, all from the environment (documented in the README). Unset means the embedded default.
import { resolve } from 'node:path';
import type { Environment } from './environment.js';
import { packageRoot } from './package-root.js';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  sandboxStepMs: number;
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  logLevel: string;
  rateLimitPerMinute: number;
  /** Redis for the limits shared by instances on PostgreSQL (limits/limits.ts); unset: PostgreSQL itself. Never logged. */
  redisUrl: string | undefined;
  /** PostgreSQL: statements sent named, parsed once per connection (store/pg-named-statements.ts). */
  databaseNamedStatements: boolean;
  /** What the limits' Redis keys start with, so deployments sharing one Redis count apart. */
  redisKeyPrefix: string;
  validateResponses: boolean;
  runWorkers: boolean;
  docsDir: string;
  /** The built web console (`npm run build`), served at /console/. */
  consoleDir: string;
  /** `sandbox` (the default) or `production`: the simulations exist only in the sandbox. */
  environment: Environment;
  /** How long a request's headers, and the whole request, may take to arrive (http/listen.ts answers 408). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; one more is closed as it is accepted. */
  maxConnections: number;
  /** A console session ends this long after its last request (30 minutes)... */
  consoleIdleTimeoutMs: number;
  /** ...and this long after sign-in in any case (12 hours). */
  consoleSessionLifetimeMs: number;
  /** The origin browsers reach the service at (`https://console.example.com`), when it is not the one requests
   * arrive at (behind a proxy that ends TLS): console requests must come from it, and over https the session cookie
   * is `Secure` and `__Host-`. Unset: the origin of each request (its scheme and Host). */
  publicOrigin: string | undefined;
  /**
   * HTTP processes of `npm start` (server/primary-role.ts `processShape`); 1 keeps one process that also runs the
   * workers; unset, one process per core in all, the worker processes included.
   */
  webConcurrency: number | undefined;
  /** Processes running the engines and the webhook dispatcher, beside the HTTP ones (when there are several). */
  workerConcurrency: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}; got "${raw}".`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!['true', 'false'].includes(raw)) throw new Error(`${name} must be true or false; got "${raw}".`);
  return raw === 'true';
}

function environment(env: NodeJS.ProcessEnv): Environment {
  const raw = env.ENVIRONMENT;
  if (raw === undefined || raw === '') return 'sandbox';
  if (raw !== 'sandbox' && raw !== 'production') throw new Error(`ENVIRONMENT must be sandbox or production; got "${raw}".`);
  return raw;
}

/** Node refuses a headers timeout longer than the request's (the headers are part of the request): said here by name. */
function timeouts(env: NodeJS.ProcessEnv): Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'> {
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100);
  if (headersTimeoutMs > requestTimeoutMs)
    throw new Error(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs}).`);
  return { headersTimeoutMs, requestTimeoutMs };
}

/** An http(s) origin (scheme, host, port; no path), as a browser's Origin header spells it. */
function publicOrigin(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.PUBLIC_ORIGIN;
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== raw.replace(/\/$/, ''))
    throw new Error(`PUBLIC_ORIGIN must be an origin such as https://console.example.com (no path); got "${raw}".`);
  return url.origin;
}

/** A redis:// or rediss:// URL; the error never repeats the value, which may hold a password. */
function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') throw new Error('REDIS_URL must be a redis:// or rediss:// URL.');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || resolve(packageRoot, 'data/payouts.sqlite'),
    sandboxStepMs: integer(env, 'SANDBOX_STEP_MS', 2000),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100),
    logLevel: env.LOG_LEVEL || 'info',
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 1200, 1),
    redisUrl: redisUrl(env),
    databaseNamedStatements: flag(env, 'DATABASE_NAMED_STATEMENTS', true),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'payouts',
    validateResponses: flag(env, 'VALIDATE_RESPONSES', env.NODE_ENV !== 'production'),
    runWorkers: flag(env, 'RUN_WORKERS', true),
    docsDir: resolve(packageRoot, 'docs/dist'),
    consoleDir: resolve(packageRoot, 'dist/console'),
    environment: environment(env),
    ...timeouts(env),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5000, 100),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1000, 1),
    consoleIdleTimeoutMs: integer(env, 'CONSOLE_IDLE_SECONDS', 30 * 60, 1) * 1000,
    consoleSessionLifetimeMs: integer(env, 'CONSOLE_SESSION_SECONDS', 12 * 60 * 60, 1) * 1000,
    publicOrigin: publicOrigin(env),
    webConcurrency: env.WEB_CONCURRENCY ? integer(env, 'WEB_CONCURRENCY', 1, 1) : undefined,
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 1, 1),
  };
}
