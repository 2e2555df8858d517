// Limits that hold across instances: two server processes on one fresh PostgreSQL database with
// RATE_LIMIT_PER_MINUTE=20, once counting in PostgreSQL (the default there) and once in Redis (REDIS_URL, a key
// prefix of this suite's own). One caller's 40 requests, sent to both instances in turn, get at least 20 answers
// 429 (each instance counting alone would let all 40 through); 11 wrong secrets for one Client ID from one address,
// sent to both in turn, see the 11th refused with 429 (alone, each would allow 10). Where the counts went is read
// back (the rate_limits table, or the Redis keys under the suite's prefix). PostgreSQL only: SQLite is one
// process's store; the Redis run is skipped, saying why, when TEST_REDIS_URL (default redis://127.0.0.1:6379)
// does not answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/platform/store/database.js';
import { dropRedisKeys, freshRedisPrefix, redisAvailable, redisKeys, redisUrl } from '../support/redis.js';
import { requestFrom } from '../support/source-address.js';
import { postgresAvailable, stores } from '../support/stores.js';
import { createMerchantWithCli, type ProvisionedMerchant } from './admin-cli.js';
import { killAll, startServerProcess, type ServerProcess } from './server-process.js';

const postgres = stores.find((kind) => kind.name === 'postgres');
const perMinute = 20;

interface Backend {
  name: 'PostgreSQL' | 'Redis';
  skip: string | undefined;
}
const backends: Backend[] = [
  { name: 'PostgreSQL', skip: postgresAvailable ? undefined : 'needs PostgreSQL, set TEST_DATABASE_URL' },
  {
    name: 'Redis',
    skip: !postgresAvailable
      ? 'needs PostgreSQL, set TEST_DATABASE_URL'
      : redisAvailable
        ? undefined
        : `no Redis answers at ${redisUrl} (TEST_REDIS_URL)`,
  },
];

for (const backend of backends) {
  const title = `limits shared by two instances on one PostgreSQL, counted in ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`;
  describe.skipIf(backend.skip !== undefined)(title, () => {
    let db: { url: string; drop(): Promise<void> } | undefined;
    const prefix = freshRedisPrefix();
    let instances: ServerProcess[] = [];
    let merchant: ProvisionedMerchant;

    beforeAll(async () => {
      db = await postgres!.fresh();
      const env = {
        DATABASE_URL: db.url,
        SANDBOX_STEP_MS: '0',
        RUN_WORKERS: 'false',
        RATE_LIMIT_PER_MINUTE: String(perMinute),
        ...(backend.name === 'Redis' ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {}),
      };
      instances = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      merchant = await createMerchantWithCli(db.url, `Shared limits ${backend.name}`);
    }, 120_000);
    afterAll(async () => {
      await killAll();
      if (backend.name === 'Redis') await dropRedisKeys(prefix);
      await db?.drop();
    });

    const tokenFrom = (address: string, instance: ServerProcess, secret: string) =>
      requestFrom(address, `${instance.baseUrl}/oauth/token`, {
        body: { client_id: merchant.clientId, client_secret: secret, grant_type: 'client_credentials' },
      });

    it(`refuses one caller's requests past ${perMinute} a minute, counted across both instances`, async () => {
      const issued = await tokenFrom('127.0.0.2', instances[0]!, merchant.clientSecret);
      expect(issued.status).toBe(200);
      const answers = [];
      for (let i = 0; i < 2 * perMinute; i++) {
        const instance = instances[i % 2]!;
        const r = await requestFrom('127.0.0.2', `${instance.baseUrl}/v1/webhooks`, {
          headers: { authorization: `Bearer ${issued.body.access_token}` },
        });
        answers.push({
          instance: i % 2,
          status: r.status,
          remaining: Number(r.headers['ratelimit-remaining']),
          retryAfter: r.headers['retry-after'],
        });
      }
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length, JSON.stringify(answers.map((a) => a.status))).toBeGreaterThanOrEqual(perMinute);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(perMinute);
      // One budget: the remaining count falls by one per request whichever instance answers.
      expect(answers.slice(0, perMinute).map((a) => a.remaining)).toEqual(Array.from({ length: perMinute }, (_, i) => perMinute - 1 - i));
      expect(new Set(refused.map((a) => a.instance))).toEqual(new Set([0, 1]));
      for (const a of refused) expect(Number(a.retryAfter)).toBeGreaterThan(0);
    });

    it('refuses the 11th wrong secret for one Client ID from one address, sent to both instances in turn', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await tokenFrom('127.0.0.3', instances[i % 2]!, `sk_guess_${i}`)).status);
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
      const locked = await tokenFrom('127.0.0.3', instances[1]!, merchant.clientSecret);
      expect(locked.status, 'the right secret from the guessing address, on the other instance').toBe(429);
      expect(locked.body.detail).toContain('for this Client ID from this address');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(250);
      expect((await tokenFrom('127.0.0.4', instances[0]!, merchant.clientSecret)).status, 'the owner from another address').toBe(200);
    });

    it(`keeps the counts in ${backend.name}, and neither instance logged an error`, async () => {
      let keys: string[];
      if (backend.name === 'Redis') {
        keys = (await redisKeys(prefix)).map((k) => k.slice(prefix.length + 1));
      } else {
        const store = await openStore(db!.url, { migrate: false, poolSize: 1 });
        try {
          keys = (await store.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
        } finally {
          await store.close();
        }
      }
      expect(keys.some((k) => k.startsWith('rate:merchant:'))).toBe(true);
      expect(keys).toContain(`failed-pair:127.0.0.3 ${merchant.clientId}`);
      expect(keys).toContain('failed-address:127.0.0.3');
      for (const instance of instances) expect(instance.failures).toEqual([]);
    });
  });
}
