// The console's request log through the HTTP surface: the public API requests that authenticated as a merchant or
// partner, recorded in batches (a row shows up within the flush interval: the cases wait on it), listed newest first
// with cursors and filters, only ever the owner's own, never a body, a query string or a credential; the newest 1,000
// of 7 days. The service's clock is moved past the 7 days.
import { describe, expect, it, vi } from 'vitest';
import { requestLogLimits } from '../../server/domain/console/request-logs.js';
import type { Owner } from '../../server/domain/events/owners.js';
import { type ConsoleBrowser, signedIn } from '../support/console.js';
import { individual } from '../support/merchants.js';
import { problemType } from '../support/requests.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

interface Row {
  time: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
  clientId: string | null;
}

describe.each(stores)('the console request log on $name', (kind) => {
  let offset = 0;
  const service = useService(kind, {}, { workers: false, now: () => Date.now() + offset });

  const list = async (browser: ConsoleBrowser, query: Record<string, string | number> = {}) => {
    const answer = await browser.send('GET', '/console/api/request-logs', { query });
    expect(answer.status, answer.text).toBe(200);
    return answer.body as { data: Row[]; nextCursor: string | null };
  };
  const all = async (browser: ConsoleBrowser, query: Record<string, string | number> = {}) => {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Row[]; nextCursor: string | null } = await list(browser, {
        PageSize: 100,
        ...query,
        ...(cursor ? { Cursor: cursor } : {}),
      });
      rows.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    return rows;
  };
  /** Waits until the log holds `count` rows (they are written within a second), then answers them. */
  const settled = (browser: ConsoleBrowser, count: number) =>
    vi.waitFor(
      async () => {
        const rows = await all(browser);
        expect(rows.length).toBe(count);
        return rows;
      },
      { timeout: 5000, interval: 100 },
    );

  it('records the public API requests of the merchant: path only, status, request id, duration, Client ID; never a body or a secret', async () => {
    const m = await service.services.credentials.createMerchant('Logged merchant');
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const token = await service.send('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: m.clientId, client_secret: m.clientSecret },
    });
    const bearer = token.body.access_token as string;
    const marker = `Marker Payee ${Date.now()}`;
    const created = await service.send('POST', '/v1/payees', { token: bearer, body: { ...individual, name: marker } });
    expect(created.status).toBe(201);
    const listed = await service.send('GET', '/v1/payouts', { token: bearer, query: { Cursor: 'c2VjcmV0LWluLXF1ZXJ5' } });
    const missing = await service.send('GET', '/v1/payees/999999', { token: bearer, headers: { 'x-request-id': 'req_console_log_1' } });
    expect(missing.status).toBe(404);
    const consoleToken = (await browser.send('POST', '/console/api/session/access-tokens')).body.access_token;
    expect((await service.send('GET', '/v1/webhooks', { token: consoleToken })).status).toBe(200);
    // Not recorded: no token, a token that is not valid, the console's own operations, the token request.
    await service.send('GET', '/v1/webhooks');
    await service.send('GET', '/v1/webhooks', { token: `${bearer}x` });

    const rows = await settled(browser, 4);
    expect(rows.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1/webhooks 200',
      'GET /v1/payees/999999 404',
      `GET /v1/payouts ${listed.status}`,
      'POST /v1/payees 201',
    ]);
    expect(rows[0]!.clientId, "the console's own token names no client").toBeNull();
    expect(rows.slice(1).every((r) => r.clientId === m.clientId)).toBe(true);
    // Filtered by Client ID, `console` naming the console's own requests.
    expect((await all(browser, { ClientId: m.clientId })).map((r) => r.path)).toEqual(['/v1/payees/999999', '/v1/payouts', '/v1/payees']);
    expect((await all(browser, { ClientId: 'console' })).map((r) => r.path)).toEqual(['/v1/webhooks']);
    expect(await all(browser, { ClientId: 'mch_cl_0000000000000000' })).toEqual([]);
    expect(rows[1]!.requestId).toBe('req_console_log_1');
    expect(rows[3]!.requestId).toBe(created.headers.get('x-request-id'));
    for (const r of rows) {
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(r.time)).toBeGreaterThan(Date.now() - 60_000);
    }
    const text = JSON.stringify(rows);
    for (const secret of [marker, 'c2VjcmV0LWluLXF1ZXJ5', bearer, consoleToken, m.clientSecret]) expect(text).not.toContain(secret);
    const stored = JSON.stringify(await service.services.store.db.selectFrom('request_logs').selectAll().execute());
    for (const secret of [marker, 'c2VjcmV0LWluLXF1ZXJ5', bearer, m.clientSecret]) expect(stored).not.toContain(secret);
  });

  it('filters by status, status class, method, path prefix and time, and pages with cursors', async () => {
    const m = await service.services.credentials.createMerchant('Filtered merchant');
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const bearer = (await browser.send('POST', '/console/api/session/access-tokens')).body.access_token;
    for (let i = 0; i < 3; i++) await service.send('GET', '/v1/webhooks', { token: bearer });
    await service.send('GET', '/v1/payees/1', { token: bearer });
    await service.send('POST', '/v1/payees', { token: bearer, body: {} });
    const rows = await settled(browser, 5);

    expect((await list(browser, { Status: '4xx' })).data.map((r) => r.status)).toEqual([400, 404]);
    expect((await list(browser, { Status: '404' })).data.map((r) => r.path)).toEqual(['/v1/payees/1']);
    expect((await list(browser, { Method: 'POST' })).data.map((r) => r.path)).toEqual(['/v1/payees']);
    expect((await list(browser, { PathPrefix: '/v1/webhooks' })).data).toHaveLength(3);
    expect((await list(browser, { PathPrefix: '/v1/pay%' })).data, 'the prefix is matched as written').toHaveLength(0);
    expect((await list(browser, { CreatedFrom: new Date(Date.parse(rows[0]!.time) + 1).toISOString() })).data).toHaveLength(0);
    expect((await list(browser, { CreatedTo: rows[4]!.time })).data).toHaveLength(0);

    const first = await list(browser, { PageSize: 2 });
    expect(first.data).toEqual(rows.slice(0, 2));
    const second = await list(browser, { PageSize: 2, Cursor: first.nextCursor! });
    expect(second.data).toEqual(rows.slice(2, 4));
    const third = await list(browser, { PageSize: 2, Cursor: second.nextCursor! });
    expect(third.data).toEqual(rows.slice(4));
    expect(third.nextCursor).toBeNull();

    const reversed = await browser.send('GET', '/console/api/request-logs', {
      query: { CreatedFrom: '2026-11-02T15:00:00Z', CreatedTo: '2026-11-02T14:00:00Z' },
    });
    expect(reversed.status).toBe(422);
    expect(reversed.body.type).toBe(problemType('business-rule'));
    const badStatus = await browser.send('GET', '/console/api/request-logs', { query: { Status: '6xx' } });
    expect(badStatus.status).toBe(400);
    const queries: Record<string, string | number>[] = [{ PageSize: 101 }, { PathPrefix: `/${'a'.repeat(200)}` }, { Method: 'TRACE' }];
    for (const query of queries) {
      const refused = await browser.send('GET', '/console/api/request-logs', { query });
      expect(refused.status, JSON.stringify(query)).toBe(400);
      expect(refused.body.errors).toContainEqual(expect.objectContaining({ parameter: Object.keys(query)[0] }));
    }
    const otherCursor = await browser.send('GET', '/console/api/request-logs', {
      query: { Cursor: Buffer.from('credential:1.x').toString('base64url') },
    });
    expect(otherCursor.status).toBe(400);
  });

  it("shows each owner only its own requests: a merchant never sees another's or a partner's, and a partner its own", async () => {
    const a = await service.services.credentials.createMerchant('Merchant A');
    const b = await service.services.credentials.createMerchant('Merchant B');
    const p = await service.services.credentials.createPartner('Partner P');
    const sessionA = await signedIn(service, { kind: 'merchant', id: a.merchantId });
    const sessionB = await signedIn(service, { kind: 'merchant', id: b.merchantId });
    const sessionP = await signedIn(service, { kind: 'partner', id: p.partnerId });
    const tokenA = (await sessionA.browser.send('POST', '/console/api/session/access-tokens')).body.access_token;
    const tokenP = (await sessionP.browser.send('POST', '/console/api/session/access-tokens')).body.access_token;
    await service.send('GET', '/v1/webhooks', { token: tokenA });
    await service.send('GET', '/finance/v1/webhooks', { token: tokenP });
    await settled(sessionA.browser, 1);
    const partnerRows = await settled(sessionP.browser, 1);
    expect(partnerRows[0]!.path).toBe('/finance/v1/webhooks');
    expect(await all(sessionB.browser)).toEqual([]);
  });

  it('keeps the newest 1,000 of each owner and 7 days: reads hold both bounds, the pruning deletes the rest', async () => {
    const m = await service.services.credentials.createMerchant('Busy merchant');
    const owner: Owner = { kind: 'merchant', id: m.merchantId };
    const { browser } = await signedIn(service, owner);
    const logs = service.services.requestLogs;
    const extra = 5;
    for (let i = 0; i < requestLogLimits.perOwner + extra; i++)
      logs.record({ owner, method: 'GET', path: `/v1/payouts/po_${i}`, status: 200, requestId: `req_${i}`, durationMs: 1, clientId: null });
    await vi.waitFor(
      async () => {
        const rows = await all(browser);
        expect(rows).toHaveLength(requestLogLimits.perOwner);
        expect(rows[0]!.requestId).toBe(`req_${requestLogLimits.perOwner + extra - 1}`);
        expect(rows.at(-1)!.requestId).toBe(`req_${extra}`);
      },
      { timeout: 10_000, interval: 200 },
    );
    const count = async () =>
      Number(
        (
          await service.services.store.db
            .selectFrom('request_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('owner_kind', '=', 'merchant')
            .where('owner_id', '=', m.merchantId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    await logs.prune();
    expect(await count()).toBe(requestLogLimits.perOwner);

    offset += requestLogLimits.keepMs + 1000;
    const later = await signedIn(service, owner); // a week on, the first session has ended
    expect(await all(later.browser), 'older than 7 days').toEqual([]);
    await logs.prune();
    expect(await count()).toBe(0);
  });
});
