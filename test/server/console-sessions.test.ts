// The console's sessions through the HTTP surface (openapi/console/): sign-in and its refusals, the limit on failed
// sign-ins, the session, its idle and absolute ends, sign-out ending it and its access tokens, the CSRF and origin
// checks, and the cookie's attributes. The service's clock (sessions, tokens) is moved rather than waited for; the
// failed sign-in limits count on Date.now, which the limit case moves the same way.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedAttemptLimits } from '../../server/domain/auth/failed-attempts.js';
import { consoleTokenLifetimeSeconds } from '../../server/domain/console/sessions.js';
import { ConsoleBrowser, consoleClient, consolePassword, newConsoleUser, signedIn } from '../support/console.js';
import { problemType } from '../support/requests.js';
import { requestFrom } from '../support/source-address.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const minute = 60_000;

describe.each(stores)('console sessions on $name', (kind) => {
  let offset = 0;
  const service = useService(kind, {}, { workers: false, now: () => Date.now() + offset });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('POST /console/api/sessions', () => {
    it('signs in: 201 with the session, its CSRF token and an HttpOnly, SameSite=Strict cookie (no Secure over http)', async () => {
      const m = await service.merchant('Northwind Logistics');
      const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
      const browser = new ConsoleBrowser(service);
      const answer = await browser.signIn(user.email.toUpperCase());
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/console/api/session');
      expect(answer.body).toMatchObject({
        user: { id: user.userId, email: user.email },
        owner: { kind: 'merchant', id: m.merchantId, name: 'Northwind Logistics' },
        environment: 'sandbox',
      });
      expect(answer.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const idleBeforeEnd = Date.parse(answer.body.expiresAt) - Date.parse(answer.body.idleExpiresAt);
      expect(idleBeforeEnd).toBeLessThanOrEqual(12 * 60 * minute - 30 * minute);
      expect(idleBeforeEnd).toBeGreaterThan(12 * 60 * minute - 30 * minute - 5000);
      expect(browser.setCookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
      // The store keeps a hash of the cookie's token, never the token.
      const token = browser.cookie!.split('=')[1]!;
      const rows = await service.services.store.db.selectFrom('console_sessions').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('refuses a wrong password and an unknown address alike: one 401 problem, no cookie', async () => {
      const m = await service.merchant();
      const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
      const wrongPassword = await new ConsoleBrowser(service).signIn(user.email, 'not the password at all');
      const unknownAddress = await new ConsoleBrowser(service).signIn('nobody@northwind.example', consolePassword);
      for (const answer of [wrongPassword, unknownAddress]) {
        expect(answer.status).toBe(401);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(answer.headers.getSetCookie()).toEqual([]);
        expect(answer.body).toMatchObject({ type: problemType('invalid-sign-in'), status: 401 });
        expect(answer.headers.get('www-authenticate')).toMatch(/^Cookie realm="console"/);
      }
      const { requestId: _a, instance: _i, ...one } = wrongPassword.body;
      const { requestId: _b, instance: _j, ...other } = unknownAddress.body;
      expect(one).toEqual(other);
    });

    it('limits failed sign-ins per address and client address: 429 even with the right password there, not elsewhere', async () => {
      const m = await service.merchant();
      const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
      const from = (address: string, password: string) =>
        requestFrom(address, `${service.baseUrl}/console/api/sessions`, {
          body: { email: user.email, password },
          headers: { origin: service.baseUrl },
        });
      for (let i = 0; i < failedAttemptLimits.perClientAndAddress; i++)
        expect((await from('127.0.0.7', `wrong password ${i}`)).status).toBe(401);
      const locked = await from('127.0.0.7', consolePassword);
      expect(locked.status).toBe(429);
      expect(locked.body).toMatchObject({ type: problemType('rate-limited') });
      expect(locked.body.detail).toContain('sign-ins for this email address from this address');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(locked.headers['set-cookie']).toBeUndefined();
      expect((await from('127.0.0.8', consolePassword)).status, 'the user, from another address').toBe(201);

      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + failedAttemptLimits.windowMs);
      expect((await from('127.0.0.7', consolePassword)).status, 'once the window has passed').toBe(201);
    });

    it('refuses a sign-in that does not show it came from the console: another Origin, a cross-site form, no Origin', async () => {
      const m = await service.merchant();
      const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
      const browser = new ConsoleBrowser(service);
      const evil = await browser.signIn(user.email, consolePassword, { origin: 'https://evil.example' });
      const form = await browser.signIn(user.email, consolePassword, {
        origin: 'https://evil.example',
        raw: new URLSearchParams({ email: user.email, password: consolePassword }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const crossSite = await browser.signIn(user.email, consolePassword, { origin: null, headers: { 'sec-fetch-site': 'cross-site' } });
      const bare = await browser.signIn(user.email, consolePassword, { origin: null });
      for (const answer of [evil, form, crossSite, bare]) {
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({
          type: problemType('forbidden'),
          detail: "Console requests are accepted from the console's own origin only.",
        });
      }
      expect(browser.cookie).toBeUndefined();
      const sameOrigin = await browser.signIn(user.email, consolePassword, { origin: null, headers: { 'sec-fetch-site': 'same-origin' } });
      expect(sameOrigin.status, 'Sec-Fetch-Site: same-origin without an Origin').toBe(201);
    });
  });

  describe('GET /console/api/session', () => {
    it('answers the live session; 401 without a cookie, with an unknown one, or from another Origin 403', async () => {
      const m = await service.merchant();
      const { user, browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      const read = await browser.send('GET', '/console/api/session');
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        user: { id: user.userId },
        owner: { kind: 'merchant', id: m.merchantId },
        csrfToken: browser.csrfToken,
      });

      const none = await browser.send('GET', '/console/api/session', { noCookie: true });
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({
        type: problemType('unauthorized'),
        detail: 'No console session; sign in at POST /console/api/sessions.',
      });
      expect(none.headers.get('www-authenticate')).toBe('Cookie realm="console", form-action="/console/api/sessions"');
      const forged = await browser.send('GET', '/console/api/session', {
        noCookie: true,
        headers: { cookie: `console_session=${'A'.repeat(43)}` },
      });
      expect(forged.status).toBe(401);
      expect((await browser.send('GET', '/console/api/session', { origin: 'https://evil.example' })).status).toBe(403);
    });

    it('a partner user reads its partner', async () => {
      const p = await service.partner('Harbor Partners');
      const { browser } = await signedIn(service, { kind: 'partner', id: p.partnerId });
      const read = await browser.send('GET', '/console/api/session');
      expect(read.body.owner).toEqual({ kind: 'partner', id: p.partnerId, name: 'Harbor Partners' });
    });
  });

  describe('access tokens of a session', () => {
    it('mints a short bearer token of the session merchant that calls the public API', async () => {
      const m = await service.merchant();
      const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      const minted = await browser.send('POST', '/console/api/session/access-tokens');
      expect(minted.status).toBe(201);
      expect(minted.body).toMatchObject({ token_type: 'Bearer', expires_in: consoleTokenLifetimeSeconds });
      expect((await service.send('GET', '/v1/webhooks', { token: minted.body.access_token })).status).toBe(200);
      expect(
        (await service.send('GET', '/finance/v1/partner/list', { token: minted.body.access_token, query: { partnerId: 1 } })).status,
      ).toBe(403);
    });

    it("mints a partner's token for a partner user", async () => {
      const p = await service.partner();
      const { browser } = await signedIn(service, { kind: 'partner', id: p.partnerId });
      const minted = await browser.send('POST', '/console/api/session/access-tokens');
      const linked = await service.send('GET', '/finance/v1/partner/list', {
        token: minted.body.access_token,
        query: { partnerId: p.partnerId },
      });
      expect(linked.status).toBe(200);
    });
  });

  describe('CSRF', () => {
    it('refuses a change without the CSRF token, with another token, or as a cross-site form post: 403, nothing done', async () => {
      const m = await service.merchant();
      const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      const before = (await browser.send('GET', '/console/api/credentials')).body.data;
      const missing = await browser.send('POST', '/console/api/credentials', { csrf: null });
      expect(missing.status).toBe(403);
      expect(missing.body).toMatchObject({
        type: problemType('forbidden'),
        detail: "Send the session's CSRF token in the X-CSRF-Token header.",
      });
      const wrong = await browser.send('POST', '/console/api/credentials', { csrf: 'A'.repeat(43) });
      expect(wrong.status).toBe(403);
      expect(wrong.body.detail).toBe("The X-CSRF-Token header is not this session's CSRF token.");
      const form = await browser.send('POST', '/console/api/credentials', {
        origin: 'https://evil.example',
        csrf: null,
        raw: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(403);
      const formWithoutOrigin = await browser.send('POST', '/console/api/credentials', {
        origin: null,
        raw: 'a=1',
        headers: { 'content-type': 'text/plain' },
      });
      expect(formWithoutOrigin.status).toBe(403);
      const signOut = await browser.send('DELETE', '/console/api/session', { csrf: null });
      expect(signOut.status, 'sign-out needs it too').toBe(403);
      expect((await browser.send('GET', '/console/api/credentials')).body.data).toEqual(before);
      expect((await browser.send('GET', '/console/api/session')).status, 'still signed in').toBe(200);
    });

    it('takes a change with the token from a caller that sends no Origin (not a browser)', async () => {
      const m = await service.merchant();
      const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      expect((await browser.send('POST', '/console/api/credentials', { origin: null })).status).toBe(201);
    });
  });

  describe('the end of a session', () => {
    it('sign-out ends the session, clears the cookie and ends its access tokens', async () => {
      const m = await service.merchant();
      const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      const cookie = browser.cookie;
      const token = (await browser.send('POST', '/console/api/session/access-tokens')).body.access_token;
      expect((await service.send('GET', '/v1/webhooks', { token })).status).toBe(200);
      const out = await browser.send('DELETE', '/console/api/session');
      expect(out.status).toBe(204);
      expect(browser.setCookie).toBe('console_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
      const after = await browser.send('GET', '/console/api/session', { headers: { cookie: cookie! } });
      expect(after.status, 'the old cookie opens nothing').toBe(401);
      const refused = await service.send('GET', '/v1/webhooks', { token });
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toBe("The access token's console session ended (signed out or expired); sign in again.");
    });

    it('ends after 30 minutes without a request, each request moving the limit on; its tokens end with it', async () => {
      const m = await service.merchant();
      const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      const token = (await browser.send('POST', '/console/api/session/access-tokens')).body.access_token;
      offset += 29 * minute;
      expect((await browser.send('GET', '/console/api/session')).status).toBe(200);
      offset += 29 * minute;
      expect((await browser.send('GET', '/console/api/credentials')).status, '58 minutes in, 29 idle').toBe(200);
      offset += 30 * minute + 1000;
      expect((await browser.send('GET', '/console/api/session')).status).toBe(401);
      expect((await browser.send('POST', '/console/api/session/access-tokens')).status).toBe(401);
      expect((await service.send('GET', '/v1/webhooks', { token })).status).toBe(401);
    });

    it('ends 12 hours after sign-in however active it is', async () => {
      const m = await service.merchant();
      const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
      const started = offset;
      while (offset - started < 12 * 60 * minute - 20 * minute) {
        offset += 20 * minute;
        expect((await browser.send('GET', '/console/api/session')).status).toBe(200);
      }
      const last = (await browser.send('POST', '/console/api/session/access-tokens')).body;
      expect(last.expires_in, 'a token never outlives its session').toBeLessThanOrEqual(20 * 60);
      offset += 20 * minute;
      expect((await browser.send('GET', '/console/api/session')).status).toBe(401);
      expect((await service.send('GET', '/v1/webhooks', { token: last.access_token })).status).toBe(401);
    });
  });
});

describe('the session cookie when the console is served over https', () => {
  const service = useService(':memory:', { publicOrigin: 'https://console.example.test' }, { workers: false });

  it('is __Host- and Secure, and console requests must come from that origin', async () => {
    const m = await service.merchant();
    const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
    const browser = new ConsoleBrowser({ baseUrl: service.baseUrl });
    expect((await browser.signIn(user.email)).status, "the service's own address is not the console's origin").toBe(403);
    const signedInAnswer = await browser.signIn(user.email, consolePassword, { origin: 'https://console.example.test' });
    expect(signedInAnswer.status).toBe(201);
    expect(browser.setCookie).toMatch(/^__Host-console_session=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Strict$/);
    const read = await browser.send('GET', '/console/api/session', { origin: null });
    expect(read.status).toBe(200);
    const plainName = browser.cookie!.replace('__Host-', '');
    const refused = await browser.send('GET', '/console/api/session', { origin: null, noCookie: true, headers: { cookie: plainName } });
    expect(refused.status, 'over https only the __Host- cookie is read').toBe(401);
  });
});

describe('the session cookie over plain http', () => {
  const service = useService(':memory:', {}, { workers: false });

  it('takes no proxy header as https: the service trusts none', async () => {
    const m = await service.merchant();
    const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
    const browser = new ConsoleBrowser(service);
    const answer = await browser.signIn(user.email, consolePassword, { headers: { 'x-forwarded-proto': 'https' } });
    expect(answer.status).toBe(201);
    expect(browser.setCookie).not.toContain('Secure');
  });
});

describe('the console page calls each operation through a client typed by the contract', () => {
  const service = useService(':memory:', {}, { workers: false });

  it('signs in, reads the session, mints a token, manages credentials, reads the log and signs out', async () => {
    const m = await service.merchant();
    const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
    const browser = new ConsoleBrowser(service);
    const client = consoleClient(browser, service.baseUrl);

    const signIn = await client.POST('/console/api/sessions', { body: { email: user.email, password: consolePassword } });
    expect(signIn.response.status).toBe(201);
    browser.csrfToken = signIn.data!.csrfToken;
    const session = await client.GET('/console/api/session');
    expect(session.data?.owner.id).toBe(m.merchantId);
    const token = await client.POST('/console/api/session/access-tokens');
    expect(token.response.status).toBe(201);
    expect((await service.send('GET', '/v1/webhooks', { token: token.data!.access_token })).status).toBe(200);

    const made = await client.POST('/console/api/credentials');
    expect(made.response.status).toBe(201);
    const clientId = made.data!.clientId;
    const rolled = await client.POST('/console/api/credentials/{clientId}/roll', {
      params: { path: { clientId } },
      body: { overlapSeconds: 60 },
    });
    expect(rolled.data?.previousSecretExpiresAt).not.toBeNull();
    const listed = await client.GET('/console/api/credentials', { params: { query: { PageSize: 10 } } });
    expect(listed.data?.data.map((c) => c.clientId)).toContain(clientId);
    const revoked = await client.DELETE('/console/api/credentials/{clientId}', { params: { path: { clientId } } });
    expect(revoked.response.status).toBe(204);

    await vi.waitFor(
      async () => {
        const logs = await client.GET('/console/api/request-logs', { params: { query: { Method: 'GET' } } });
        expect(logs.data?.data.map((r) => r.path)).toEqual(['/v1/webhooks']);
      },
      { timeout: 5000, interval: 100 },
    );
    const out = await client.DELETE('/console/api/session');
    expect(out.response.status).toBe(204);
    expect((await client.GET('/console/api/session')).response.status).toBe(401);
  });
});
