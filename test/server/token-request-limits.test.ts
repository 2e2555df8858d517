// Failed token requests are limited per (Client ID, client address) and per address, never per Client ID alone
// (issue 10): knowing a public Client ID must not let anyone lock its owner out. Requests come from distinct
// loopback addresses (127.0.0.x), which the service sees as distinct clients. The limits count on Date.now (as
// rate-limiter-flexible reads it, in memory on SQLite and in the rate_limits table on PostgreSQL), which the test
// moves on, so the window passes without waiting.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FailedAttempts, failedAttemptLimits } from '../../server/domain/auth/failed-attempts.js';
import { requestFrom } from '../support/source-address.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const merchantToken = {
  path: '/oauth/token',
  body: (id: string, secret: string) => ({ client_id: id, client_secret: secret, grant_type: 'client_credentials' }),
};
const partnerTokens = [
  { path: '/finance/v1/generate-token', body: (id: string, secret: string) => ({ clientId: id, clientSecret: secret }) },
  { path: '/api/v1/generate-token', body: (id: string, secret: string) => ({ clientId: id, clientSecret: secret }) },
];

describe.each(stores)('failed token requests on $name', (kind) => {
  const service = useService(kind, {}, { workers: false });
  let offset = 0;

  beforeAll(async () => {
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
  });

  const merchantFrom = (address: string, id: string, secret: string) =>
    requestFrom(address, service.baseUrl + merchantToken.path, { body: merchantToken.body(id, secret) });
  const partnerFrom = (address: string, t: (typeof partnerTokens)[number], id: string, secret: string) =>
    requestFrom(address, service.baseUrl + t.path, { body: t.body(id, secret) });
  const readFrom = (address: string, path: string, token: string) =>
    requestFrom(address, service.baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
  const wrongSecrets = async (address: string, clientId: string, times: number) => {
    for (let i = 0; i < times; i++) expect((await merchantFrom(address, clientId, `sk_guess_${i}`)).status).toBe(401);
  };

  it('ten wrong secrets from one address lock that pair only: the right secret from another address gets a token that works', async () => {
    const victim = await service.services.credentials.createMerchant('Victim');
    const bystander = await service.services.credentials.createMerchant('Bystander');
    await wrongSecrets('127.0.0.2', victim.clientId, failedAttemptLimits.perClientAndAddress);

    const locked = await merchantFrom('127.0.0.2', victim.clientId, victim.clientSecret);
    expect(locked.status, 'the right secret from the guessing address is refused too').toBe(429);
    expect(locked.body).toMatchObject({
      type: 'https://payouts.example/problems/rate-limited',
      status: 429,
      error: 'temporarily_unavailable',
    });
    expect(locked.body.detail).toContain('for this Client ID from this address');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(290);
    expect(locked.body.access_token).toBeUndefined();

    const elsewhere = await merchantFrom('127.0.0.3', victim.clientId, victim.clientSecret);
    expect(elsewhere.status, 'the owner, from another address').toBe(200);
    expect((await readFrom('127.0.0.3', '/v1/webhooks', elsewhere.body.access_token)).status).toBe(200);
    const bystanding = await merchantFrom('127.0.0.2', bystander.clientId, bystander.clientSecret);
    expect(bystanding.status, 'another client from the guessing address').toBe(200);

    offset += failedAttemptLimits.windowMs; // the window passes
    expect((await merchantFrom('127.0.0.2', victim.clientId, victim.clientSecret)).status).toBe(200);
  });

  it('counts a partner pair across both partner token operations', async () => {
    const victim = await service.services.credentials.createPartner('Victim partner');
    for (let i = 0; i < failedAttemptLimits.perClientAndAddress; i++) {
      const t = partnerTokens[i % 2]!;
      expect((await partnerFrom('127.0.0.4', t, victim.clientId, `sk_guess_${i}`)).status).toBe(401);
    }
    for (const t of partnerTokens) {
      expect((await partnerFrom('127.0.0.4', t, victim.clientId, victim.clientSecret)).status).toBe(429);
      const elsewhere = await partnerFrom('127.0.0.5', t, victim.clientId, victim.clientSecret);
      expect(elsewhere.status).toBe(200);
      expect((await readFrom('127.0.0.5', '/finance/v1/partner/list', elsewhere.body.access_token)).status).toBe(200);
    }
  });

  it('100 failures across many clients from one address lock that address, and no other', async () => {
    const owner = await service.services.credentials.createMerchant('Sprayed');
    for (let i = 0; i < failedAttemptLimits.perAddress; i++) {
      const t = i % 3 === 0 ? merchantToken : partnerTokens[(i % 3) - 1]!;
      const id = `${t === merchantToken ? 'mch' : 'prt'}_cl_${String(i).padStart(16, '0')}`;
      expect((await requestFrom('127.0.0.6', service.baseUrl + t.path, { body: t.body(id, 'sk_spray') })).status).toBe(401);
    }
    const locked = await merchantFrom('127.0.0.6', owner.clientId, owner.clientSecret);
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toContain('from this address');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await merchantFrom('127.0.0.7', owner.clientId, owner.clientSecret)).status, 'the same client from another address').toBe(200);
  });

  it('counts concurrent guesses as they start: a burst gets exactly ten tries', async () => {
    const victim = await service.services.credentials.createMerchant('Burst');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => merchantFrom('127.0.0.8', victim.clientId, `sk_burst_${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(failedAttemptLimits.perClientAndAddress);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - failedAttemptLimits.perClientAndAddress);
  });

  // A client still sending the secret its credentials had before a roll is told so, and never counted: it cannot
  // lock the secret that replaced it out of its own address. Guesses around it keep counting.
  const replaced = /^This Client Secret was replaced on \d{4}-\d{2}-\d{2}T[\d:.]+Z and no longer works/;

  it('answers a secret replaced by a roll 401 invalid_client saying so, uncounted: its successor works from the same address', async () => {
    const rolled = await service.services.credentials.createMerchant('Rolled');
    const next = (await service.services.credentials.rotateSecret(rolled.clientId))!.clientSecret;
    for (let i = 0; i < 2 * failedAttemptLimits.perClientAndAddress; i++) {
      const old = await merchantFrom('127.0.0.10', rolled.clientId, rolled.clientSecret);
      expect(old.status, `attempt ${i}`).toBe(401);
      expect(old.body).toMatchObject({ type: 'https://payouts.example/problems/invalid-client', error: 'invalid_client' });
      expect(old.body.detail).toMatch(replaced);
      expect(old.body.error_description).toBe(old.body.detail);
    }
    expect((await merchantFrom('127.0.0.10', rolled.clientId, next)).status).toBe(200);

    // (After an overlap ends, the previous secret is answered so too: test/server/console-credentials.test.ts.)

    // A partner's, through both partner token operations.
    const partner = await service.services.credentials.createPartner('Rolled partner');
    await service.services.credentials.rotateSecret(partner.clientId);
    for (let i = 0; i < 2 * failedAttemptLimits.perClientAndAddress; i++) {
      const old = await partnerFrom('127.0.0.11', partnerTokens[i % 2]!, partner.clientId, partner.clientSecret);
      expect(old.status).toBe(401);
      expect(old.body.detail).toMatch(replaced);
    }
  });

  it('keeps counting guesses sent between replaced secrets: they buy no more tries', async () => {
    const rolled = await service.services.credentials.createMerchant('Guessed around');
    const next = (await service.services.credentials.rotateSecret(rolled.clientId))!.clientSecret;
    for (let i = 0; i < failedAttemptLimits.perClientAndAddress; i++) {
      expect((await merchantFrom('127.0.0.12', rolled.clientId, `sk_guess_${i}`)).status).toBe(401);
      if (i < failedAttemptLimits.perClientAndAddress - 1)
        expect((await merchantFrom('127.0.0.12', rolled.clientId, rolled.clientSecret)).body.detail).toMatch(replaced);
    }
    expect((await merchantFrom('127.0.0.12', rolled.clientId, next)).status, 'ten guesses lock the pair').toBe(429);
    expect((await merchantFrom('127.0.0.13', rolled.clientId, next)).status, 'from another address').toBe(200);
  });

  it("forgets a pair's failures when its right secret arrives (a typo streak), but not the address's", async () => {
    const typist = await service.services.credentials.createMerchant('Typist');
    for (let round = 0; round < 3; round++) {
      await wrongSecrets('127.0.0.9', typist.clientId, failedAttemptLimits.perClientAndAddress - 1);
      expect((await merchantFrom('127.0.0.9', typist.clientId, typist.clientSecret)).status, `round ${round}`).toBe(200);
    }
  });
});

describe('the failed-attempt limits in memory', () => {
  it('keep refusing a guesser however many other keys are sprayed (no key leaves before its window closes)', async () => {
    const attempts = new FailedAttempts();
    const fail = (id: string, address: string) => attempts.begin(id, address); // never succeeded: a failure
    for (let i = 0; i < failedAttemptLimits.perClientAndAddress; i++) await fail('mch_cl_victim', '203.0.113.7');
    await expect(fail('mch_cl_victim', '203.0.113.7')).rejects.toThrow(/for this Client ID/);
    // A spray from many addresses makes thousands of keys; the guesser keeps trying meanwhile.
    for (let i = 0; i < 5_000; i++) {
      await fail(`mch_cl_${i}`, `198.51.${(i >> 8) & 255}.${i & 255}`);
      if (i % 10 === 0) await expect(fail('mch_cl_victim', '203.0.113.7')).rejects.toThrow(/for this Client ID/);
    }
    await expect(fail('mch_cl_victim', '203.0.113.7')).rejects.toThrow(/for this Client ID/);
  });

  it('count an IPv6 client by its /64 network, and an IPv4-mapped address as IPv4', async () => {
    const attempts = new FailedAttempts();
    for (let i = 0; i < failedAttemptLimits.perAddress; i++) await attempts.begin(`mch_cl_${i}`, `2001:db8:0:7::${(i + 1).toString(16)}`);
    await expect(attempts.begin('mch_cl_x', '2001:db8:0:7:ffff:ffff:ffff:ffff')).rejects.toThrow(/from this address/);
    await expect(attempts.begin('mch_cl_x', '2001:db8:0:8::1')).resolves.toBeDefined();
    for (let i = 0; i < failedAttemptLimits.perAddress; i++) await attempts.begin(`mch_cl_${i}`, '192.0.2.1');
    await expect(attempts.begin('mch_cl_x', '::ffff:192.0.2.1')).rejects.toThrow(/from this address/);
  });
});
