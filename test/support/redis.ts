// The Redis the shared-limit suites use: TEST_REDIS_URL, by default the machine's (redis://127.0.0.1:6379). When
// it does not answer, those suites report themselves skipped, saying why, as the PostgreSQL ones do. Each suite
// takes a key prefix of its own (`freshRedisPrefix`), so suites running at once never count each other's keys.
import { randomBytes } from 'node:crypto';

export const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export const redisAvailable = await redisAnswers();
if (!redisAvailable) console.warn(`Redis suites skipped: no Redis answers at ${process.env.TEST_REDIS_URL ? 'TEST_REDIS_URL' : redisUrl}.`);

/** A key prefix no other suite uses. */
export function freshRedisPrefix(): string {
  return `payouts-test-${randomBytes(6).toString('hex')}`;
}

async function withRedis<T>(use: (client: import('ioredis').Redis) => Promise<T>): Promise<T> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

/** Every key under `prefix`: where the counts went. */
export function redisKeys(prefix: string): Promise<string[]> {
  return withRedis((client) => client.keys(`${prefix}:*`));
}

/** Deletes every key under `prefix` (a suite's, when it ends; they would expire within five minutes anyway). */
export function dropRedisKeys(prefix: string): Promise<void> {
  return withRedis(async (client) => {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
  });
}
