// When the limits' shared store cannot be reached (here a REDIS_URL where nothing listens, with a password in it):
// the per-caller rate limit fails open to this instance's own memory (the same budget, its headers as always), the
// failed token request limits fail closed (429 with a short Retry-After: no token is issued on an unknown count),
// a warning says so, and the password never reaches a log line.
import { describe, expect, it } from 'vitest';
import { uncheckedRetryAfterSeconds } from '../../server/domain/auth/failed-attempts.js';
import { loadConfig } from '../../server/platform/config.js';
import { requestFrom } from '../support/source-address.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const password = 'never-logged-s3cret';

describe('limits whose store cannot be reached', () => {
  const service = useService(stores[0]!, { rateLimitPerMinute: 3, redisUrl: `redis://:${password}@127.0.0.1:1/0` }, { workers: false });

  it('keep the rate limit in this instance: the budget and its headers hold', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await requestFrom('127.0.0.2', `${service.baseUrl}/v1/webhooks`));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[3]!.headers['ratelimit-limit']).toBe('3');
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(50);
  });

  it('refuse token requests with 429 and a short Retry-After, even with the right secret', async () => {
    const client = await service.services.credentials.createMerchant('Unchecked');
    const answer = await requestFrom('127.0.0.3', `${service.baseUrl}/oauth/token`, {
      body: { client_id: client.clientId, client_secret: client.clientSecret, grant_type: 'client_credentials' },
    });
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ type: 'https://payouts.example/problems/rate-limited', status: 429 });
    expect(answer.body.detail).toContain('cannot be counted');
    expect(answer.headers['retry-after']).toBe(String(uncheckedRetryAfterSeconds));
    expect(answer.body.access_token).toBeUndefined();
  });

  it('say so in a warning, and never write the password', () => {
    expect(service.warnings.some((line) => line.includes('limit store'))).toBe(true);
    expect(service.logs.filter((line) => line.includes(password))).toEqual([]);
    expect(service.warnings.join('')).toContain('127.0.0.1:1');
  });
});

describe('REDIS_URL', () => {
  it('is optional, takes redis:// and rediss:// URLs, and a refusal never repeats the value', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380/2' }).redisUrl).toBe('rediss://:pw@cache.internal:6380/2');
    expect(loadConfig({}).redisKeyPrefix).toBe('payouts');
    expect(() => loadConfig({ REDIS_URL: `http://:${password}@cache.internal` })).toThrow('REDIS_URL must be a redis:// or rediss:// URL.');
    expect(() => loadConfig({ REDIS_URL: `${password} not a url` })).toThrow(/^REDIS_URL must be/);
    try {
      loadConfig({ REDIS_URL: `http://:${password}@cache.internal` });
    } catch (err) {
      expect((err as Error).message).not.toContain(password);
    }
  });
});
