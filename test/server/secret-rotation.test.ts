// Rotating a client's secret ends the tokens issued under the old one (issue 10), for merchants (groups A, B
// and D) and partners (C and E): at once on the instance that rotates, and within the stated bound
// (generationCacheSeconds) on every other instance on the same store. That instance's clock is injected, so
// the bound passes without waiting.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationCacheSeconds } from '../../server/domain/auth/client-generations.js';
import { send } from '../support/requests.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';

type Caller = 'merchant' | 'partner';
const revoked = expect.stringMatching(/^The access token was revoked/);
const revokedChallenge = /^Bearer realm="payouts", error="invalid_token", error_description="The access token was revoked/;
const callers = ['merchant', 'partner'] as const;
/** Reads and writes of each group; any answer but 401 and 403 means the token was accepted. */
const operations: { caller: Caller; method: string; path: string; body?: unknown }[] = [
  { caller: 'merchant', method: 'GET', path: '/v1/webhooks' },
  { caller: 'merchant', method: 'POST', path: '/v1/payees', body: {} },
  { caller: 'merchant', method: 'GET', path: '/payouts/v1/payouts' },
  { caller: 'merchant', method: 'GET', path: '/finance/api/v1/business/999' },
  { caller: 'partner', method: 'GET', path: '/finance/v1/partner/list' },
  { caller: 'partner', method: 'POST', path: '/finance/v1/payee', body: {} },
  { caller: 'partner', method: 'POST', path: '/finance/v1/search_transactions', body: {} },
];

describe.each(stores)('secret rotation on $name', (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  let first: RunningService;
  let second: RunningService;
  let secondOffset = 0;

  beforeAll(async () => {
    const db = await kind.fresh();
    [url, drop] = [db.url, db.drop];
    first = await startService(url, {}, { workers: false });
    second = await startService(url, {}, { workers: false, now: () => Date.now() + secondOffset });
  });
  afterAll(async () => {
    await second.stop();
    await first.stop();
    await drop();
  });

  const provision = (caller: Caller) =>
    caller === 'merchant' ? first.services.credentials.createMerchant('Acme') : first.services.credentials.createPartner('Partner');
  const tokenFrom = async (service: RunningService, caller: Caller, clientId: string, clientSecret: string) => {
    const [path, body] =
      caller === 'merchant'
        ? ['/oauth/token', { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }]
        : ['/finance/v1/generate-token', { clientId, clientSecret }];
    return send(service.baseUrl, 'POST', path, { body });
  };
  const accepted = async (service: RunningService, caller: Caller, token: string) => {
    for (const o of operations.filter((x) => x.caller === caller)) {
      const r = await send(service.baseUrl, o.method, o.path, { token, body: o.body });
      if ([401, 403].includes(r.status)) return false;
    }
    return true;
  };
  const refusedAsRevoked = async (service: RunningService, caller: Caller, token: string) => {
    for (const o of operations.filter((x) => x.caller === caller)) {
      const r = await send(service.baseUrl, o.method, o.path, { token, body: o.body });
      expect(r.status, `${o.method} ${o.path}`).toBe(401);
      expect(r.body).toMatchObject({ type: 'https://payouts.example/problems/unauthorized', error: 'invalid_token', detail: revoked });
      expect(r.headers.get('www-authenticate')).toMatch(revokedChallenge);
    }
  };

  it.each(callers)("a %s token of the old secret stops working at once; the new secret's token works", async (caller) => {
    const client = await provision(caller);
    const old = (await tokenFrom(first, caller, client.clientId, client.clientSecret)).body.access_token as string;
    expect(await accepted(first, caller, old)).toBe(true);

    const rotated = (await first.services.credentials.rotateSecret(client.clientId))!;
    await refusedAsRevoked(first, caller, old);
    const oldSecret = await tokenFrom(first, caller, client.clientId, client.clientSecret);
    expect(oldSecret.status).toBe(401);
    expect(oldSecret.body.error).toBe('invalid_client');
    const fresh = await tokenFrom(first, caller, client.clientId, rotated.clientSecret);
    expect(fresh.status).toBe(200);
    expect(await accepted(first, caller, fresh.body.access_token)).toBe(true);

    // A second rotation ends the first rotation's tokens as well.
    await first.services.credentials.rotateSecret(client.clientId);
    await refusedAsRevoked(first, caller, fresh.body.access_token);
  });

  it.each(callers)('another instance refuses a rotated %s token once its cached generation runs out', async (caller) => {
    const client = await provision(caller);
    const old = (await tokenFrom(first, caller, client.clientId, client.clientSecret)).body.access_token as string;
    expect(await accepted(second, caller, old)).toBe(true); // the second instance now holds the generation

    const rotated = (await first.services.credentials.rotateSecret(client.clientId))!;
    secondOffset += generationCacheSeconds * 1000; // the bound passes on the second instance's clock
    await refusedAsRevoked(second, caller, old);
    const fresh = (await tokenFrom(second, caller, client.clientId, rotated.clientSecret)).body.access_token as string;
    expect(await accepted(first, caller, fresh)).toBe(true);
    expect(await accepted(second, caller, fresh)).toBe(true);
  });
});

describe('the stated bound', () => {
  const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const schemes = ['MerchantOAuth', 'BankingJWT', 'PartnerJWT'].map((s) => `openapi/shared/security/${s}.yaml`);
  it.each(['README.md', 'openapi/DECISIONS.md', ...schemes])('%s states the bound the service keeps', (path) => {
    expect(read(path)).toMatch(new RegExp(`tokens[^.]* within ${generationCacheSeconds} seconds`));
  });
});
