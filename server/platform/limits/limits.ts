// Where the service's limits are counted: the per-caller rate limit (http/rate-limit.ts) and the failed token
// request limits (auth/failed-attempts.ts). On the embedded store, in this process's memory (with several processes,
// in the primary process's, asked over IPC: primary-limits.ts); on PostgreSQL, in the
// store's own `rate_limits` table (migration 0015; unlogged since 0020: a count never waits for a log flush), or in Redis when REDIS_URL is set: with N instances on one
// database every instance counts against the same budget, where per-process memory gave a caller N budgets.
// rate-limiter-flexible counts in all three: a fixed window per key that opens at the key's first count and
// closes `duration` seconds later (its `duration` starts at the first consume), each count one atomic step (an
// upsert, a Lua script on Redis), so concurrent requests on several instances cannot all pass the check.
//
// This module only counts and reports a store that fails (a warning at most once a minute per limit); what a
// limit does then is its own decision: the rate limit falls back to this process's memory, the failed-attempt
// limits refuse (their headers say why). ioredis is loaded only when REDIS_URL is set, as pg is only for
// PostgreSQL. The Redis URL never reaches a log line: only its host and port do, and its password is cut out of
// any error message.
import { CompiledQuery } from 'kysely';
import type { Logger } from 'pino';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Store } from '../store/database.js';

/** One count against a key, as its window stands after it. */
export interface Count {
  /** Whether this count stayed within the limit. */
  allowed: boolean;
  /** Counts left in the window. */
  remaining: number;
  /** Milliseconds until the key's window closes. */
  msBeforeNext: number;
}

export interface Limiter {
  readonly points: number;
  /** Counts one against `key`. Rejects (with `LimitStoreUnavailable`) only when the store cannot be reached. */
  consume(key: string): Promise<Count>;
  /** Takes one count back from `key`'s window. */
  reward(key: string): Promise<void>;
  /** Forgets `key`'s window. */
  delete(key: string): Promise<void>;
}

/** The limits' store failed: nothing is known about the count. */
export class LimitStoreUnavailable extends Error {}

/** `primary`: the embedded store's counts when `npm start` runs several processes, kept by the primary (primary-limits.ts). */
export type LimitStoreKind = 'memory' | 'primary' | 'postgres' | 'redis';

export interface Limits {
  /** Where the counts live: this process's memory, or a store every instance shares. */
  readonly kind: LimitStoreKind;
  /** A limit of `points` counts per key in a window of `durationSeconds`, named apart from the others. With
   * `refuseSpentLocally`, an instance that has seen a key spend its budget refuses it from memory until the window
   * closes, without asking the store again (a caller flooding past its limit costs the store nothing more); only
   * for a limit whose keys are never reset before their window closes. */
  limiter(name: string, points: number, durationSeconds: number, options?: { refuseSpentLocally?: boolean }): Limiter;
  /** The same limit in this process's memory, whatever the kind: the fallback of a limit that fails open. */
  local(name: string, points: number, durationSeconds: number): Limiter;
  close(): Promise<void>;
}

export interface LimitsOptions {
  /** redis:// or rediss:// URL; unset keeps the limits in PostgreSQL (or memory, on the embedded store). */
  redisUrl?: string;
  /** What every Redis key starts with, so several deployments (or test suites) can share one Redis. */
  redisKeyPrefix?: string;
}

/** The table migration 0015 creates; the library is told it exists and never creates one. */
export const rateLimitTable = 'rate_limits';

/** Limits in this process's memory (the embedded store, and tests of one process). */
export function memoryLimits(): Limits {
  const local = (name: string, points: number, duration: number) => wrap(new RateLimiterMemory({ keyPrefix: name, points, duration }));
  return { kind: 'memory', limiter: local, local, close: async () => {} };
}

/** The one place the limits are built: memory on SQLite, PostgreSQL on PostgreSQL, Redis when a URL is given. */
export async function openLimits(store: Store, options: LimitsOptions, log: Logger): Promise<Limits> {
  if (options.redisUrl) return openRedisLimits(options.redisUrl, options.redisKeyPrefix ?? 'payouts', log);
  if (store.dialect === 'sqlite') return memoryLimits();
  // The queries go through the store's Kysely (its pool, its well-formed-parameter check), given to the library
  // as a client it only calls `query({ text, values })` on.
  const client = {
    query: (q: { text: string; values?: unknown[] }) => store.db.executeQuery(CompiledQuery.raw(q.text, q.values ?? [])),
  };
  let sweeping = false;
  const failures = reporter(log, 'postgres');
  return {
    kind: 'postgres',
    limiter(name, points, duration, { refuseSpentLocally = false } = {}) {
      // One limiter sweeps windows closed an hour ago out of the table (every five minutes, not critical).
      const clearExpiredByTimeout = !sweeping;
      sweeping = true;
      const limiter = new RateLimiterPostgres({
        storeClient: client,
        storeType: 'pool',
        tableName: rateLimitTable,
        tableCreated: true,
        clearExpiredByTimeout,
        keyPrefix: name,
        points,
        duration,
        inMemoryBlockOnConsumed: refuseSpentLocally ? points : undefined,
      });
      return wrap(limiter, (err) => failures(name, err));
    },
    local: memoryLimits().local,
    close: async () => {},
  };
}

async function openRedisLimits(url: string, keyPrefix: string, log: Logger): Promise<Limits> {
  const { Redis } = await import('ioredis');
  const where = redisAddress(url);
  const secret = redisPassword(url);
  const scrub = (message: string) => (secret ? message.split(secret).join('[redacted]') : message);
  const failures = reporter(log, 'redis', scrub);
  const client = new Redis(url, {
    // A command while disconnected fails at once instead of waiting in a queue: a request is never held up by
    // an unreachable Redis; the limit decides what to do (rate-limiter-flexible's rejectIfRedisNotReady too).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
  });
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return; // one line per outage, not one per reconnection attempt
    down = true;
    log.warn({ redis: where, error: scrub(err.message) }, 'limit store unreachable');
  });
  client.on('ready', () => {
    if (down) log.info({ redis: where }, 'limit store reachable again');
    down = false;
  });
  // The first requests should find it connected; when it refuses or does not answer in time the service starts
  // anyway and ioredis goes on reconnecting (the limits meanwhile act as when it fails).
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, 3000);
    client.once('ready', done).once('error', done);
  });
  return {
    kind: 'redis',
    limiter(name, points, duration, { refuseSpentLocally = false } = {}) {
      const limiter = new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        keyPrefix: `${keyPrefix}:${name}`,
        points,
        duration,
        inMemoryBlockOnConsumed: refuseSpentLocally ? points : undefined,
      });
      return wrap(limiter, (err) => failures(name, err));
    },
    local: memoryLimits().local,
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

function wrap(limiter: RateLimiterAbstract, failed: (err: unknown) => void = () => {}): Limiter {
  const unavailable = (err: unknown): never => {
    failed(err);
    throw new LimitStoreUnavailable('the limits store cannot be reached', { cause: err });
  };
  const count = (res: RateLimiterRes, allowed: boolean): Count => ({
    allowed,
    remaining: allowed ? res.remainingPoints : 0,
    msBeforeNext: res.msBeforeNext,
  });
  return {
    points: limiter.points,
    async consume(key) {
      try {
        return count(await limiter.consume(key), true);
      } catch (err) {
        // Past the limit the library rejects with the window's state (also when it refuses from memory a key
        // it already knows is over); anything else is the store failing.
        if (err instanceof RateLimiterRes) return count(err, false);
        return unavailable(err);
      }
    },
    async reward(key) {
      await limiter.reward(key).catch(unavailable);
    },
    async delete(key) {
      await limiter.delete(key).catch(unavailable);
    },
  };
}

/** Logs a limit's store failure at most once a minute per limit, with the error's message only. */
function reporter(log: Logger, store: LimitStoreKind, scrub: (message: string) => string = (m) => m) {
  const last = new Map<string, number>();
  return (limit: string, err: unknown) => {
    const now = Date.now();
    if (now - (last.get(limit) ?? -Infinity) < 60_000) return;
    last.set(limit, now);
    log.warn({ store, limit, error: scrub(err instanceof Error ? err.message : String(err)) }, 'limit store failed');
  };
}

/** `host:port` of a Redis URL: what a log line may say of it. */
export function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return '(a REDIS_URL that is not a URL)';
  }
}

function redisPassword(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.password ? decodeURIComponent(u.password) : undefined;
  } catch {
    return undefined;
  }
}
