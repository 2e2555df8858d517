// The console's credentials through the HTTP surface: created with the secret shown once, listed without it,
// rolled with an overlap (the old secret and its tokens work until it ends, then stop), revoked (its tokens stop),
// "last used" set by a token request, and never another owner's. The service's clock is moved past an overlap.
import { describe, expect, it } from 'vitest';
import { maxCredentialsPerOwner } from '../../server/domain/auth/credentials.js';
import { signedIn } from '../support/console.js';
import { problemType } from '../support/requests.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

describe.each(stores)('console credentials on $name', (kind) => {
  let offset = 0;
  const service = useService(kind, {}, { workers: false, now: () => Date.now() + offset });

  const merchantToken = (clientId: string, clientSecret: string) =>
    service.send('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });
  const readWith = (token: string) => service.send('GET', '/v1/webhooks', { token });

  it('creates a credential whose secret is shown once and gets tokens; the list never shows a secret', async () => {
    const m = await service.merchant();
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const made = await browser.send('POST', '/console/api/credentials');
    expect(made.status).toBe(201);
    expect(made.body.clientId).toMatch(/^mch_cl_[0-9a-f]{16}$/);
    expect(made.body.clientSecret).toMatch(/^sk_/);
    expect(made.headers.get('location')).toBe(`/console/api/credentials/${made.body.clientId}`);

    const listed = await browser.send('GET', '/console/api/credentials');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(made.body.clientSecret);
    expect(listed.body.data.map((c: { clientId: string }) => c.clientId)).toEqual([made.body.clientId, m.clientId]);
    expect(listed.body.data[0]).toMatchObject({ lastUsedAt: null, rolledAt: null, previousSecretExpiresAt: null });

    const token = await merchantToken(made.body.clientId, made.body.clientSecret);
    expect(token.status).toBe(200);
    expect((await readWith(token.body.access_token)).status).toBe(200);
    const used = (await browser.send('GET', '/console/api/credentials')).body.data[0];
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThan(Date.parse(used.createdAt) - 1);
  });

  it('rolls with an overlap: the old secret and its tokens work until it ends, then stop; the new one works', async () => {
    const m = await service.merchant();
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const made = (await browser.send('POST', '/console/api/credentials')).body;
    const oldToken = (await merchantToken(made.clientId, made.clientSecret)).body.access_token;

    const rolled = await browser.send('POST', `/console/api/credentials/${made.clientId}/roll`, { body: { overlapSeconds: 600 } });
    expect(rolled.status).toBe(200);
    expect(rolled.body.clientId).toBe(made.clientId);
    expect(rolled.body.clientSecret).not.toBe(made.clientSecret);
    expect(Date.parse(rolled.body.previousSecretExpiresAt) - Date.parse(rolled.body.rolledAt)).toBe(600_000);
    const listed = (await browser.send('GET', '/console/api/credentials')).body.data.find(
      (c: { clientId: string }) => c.clientId === made.clientId,
    );
    expect(listed).toMatchObject({ rolledAt: rolled.body.rolledAt, previousSecretExpiresAt: rolled.body.previousSecretExpiresAt });

    const duringOverlap = await merchantToken(made.clientId, made.clientSecret);
    expect(duringOverlap.status, 'the old secret during the overlap').toBe(200);
    expect((await readWith(oldToken)).status, "the old secret's token during the overlap").toBe(200);
    expect((await readWith(duringOverlap.body.access_token)).status).toBe(200);
    const newToken = (await merchantToken(made.clientId, rolled.body.clientSecret)).body.access_token;
    expect((await readWith(newToken)).status).toBe(200);

    offset += 600_000 + 1000; // the tokens themselves live an hour: only the overlap's end stops them
    const afterOverlap = await merchantToken(made.clientId, made.clientSecret);
    expect(afterOverlap.status, 'the old secret after the overlap').toBe(401);
    expect(afterOverlap.body).toMatchObject({
      error: 'invalid_client',
      detail: expect.stringMatching(/^This Client Secret was replaced on /),
    });
    for (const token of [oldToken, duringOverlap.body.access_token]) {
      const refused = await readWith(token);
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toContain('was revoked');
    }
    expect((await readWith(newToken)).status).toBe(200);
    const after = (await browser.send('GET', '/console/api/credentials')).body.data.find(
      (c: { clientId: string }) => c.clientId === made.clientId,
    );
    expect(after.previousSecretExpiresAt).toBeNull();
  });

  it('rolls without an overlap: the old secret and its tokens stop now; a second roll ends an overlap still running', async () => {
    const m = await service.merchant();
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const made = (await browser.send('POST', '/console/api/credentials')).body;
    const firstToken = (await merchantToken(made.clientId, made.clientSecret)).body.access_token;
    const second = (await browser.send('POST', `/console/api/credentials/${made.clientId}/roll`, { body: { overlapSeconds: 600 } })).body;
    const third = await browser.send('POST', `/console/api/credentials/${made.clientId}/roll`, { body: { overlapSeconds: 0 } });
    expect(third.body.previousSecretExpiresAt).toBeNull();
    expect((await merchantToken(made.clientId, made.clientSecret)).status).toBe(401);
    expect((await merchantToken(made.clientId, second.clientSecret)).status).toBe(401);
    expect((await readWith(firstToken)).status).toBe(401);
    expect((await merchantToken(made.clientId, third.body.clientSecret)).status).toBe(200);
  });

  it('refuses an overlap beyond 24 hours, naming the field', async () => {
    const m = await service.merchant();
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const refused = await browser.send('POST', `/console/api/credentials/${m.clientId}/roll`, { body: { overlapSeconds: 86_401 } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '#/overlapSeconds' })]);
    expect((await merchantToken(m.clientId, m.clientSecret)).status, 'nothing was rolled').toBe(200);
  });

  it('revokes: the secret and its tokens stop, the credential is no longer listed, a second revoke is 404', async () => {
    const m = await service.merchant();
    const { browser } = await signedIn(service, { kind: 'merchant', id: m.merchantId });
    const made = (await browser.send('POST', '/console/api/credentials')).body;
    const token = (await merchantToken(made.clientId, made.clientSecret)).body.access_token;
    expect((await browser.send('DELETE', `/console/api/credentials/${made.clientId}`)).status).toBe(204);
    expect((await readWith(token)).status).toBe(401);
    expect((await merchantToken(made.clientId, made.clientSecret)).status).toBe(401);
    const ids = (await browser.send('GET', '/console/api/credentials')).body.data.map((c: { clientId: string }) => c.clientId);
    expect(ids).not.toContain(made.clientId);
    const again = await browser.send('DELETE', `/console/api/credentials/${made.clientId}`);
    expect(again.status).toBe(404);
    expect(again.body.type).toBe(problemType('not-found'));
  });

  it("never shows or changes another owner's credentials", async () => {
    const a = await service.merchant();
    const b = await service.services.credentials.createMerchant('Other merchant');
    const { browser } = await signedIn(service, { kind: 'merchant', id: b.merchantId });
    const listed = await browser.send('GET', '/console/api/credentials');
    expect(listed.body.data.map((c: { clientId: string }) => c.clientId)).toEqual([b.clientId]);
    expect((await browser.send('POST', `/console/api/credentials/${a.clientId}/roll`, { body: { overlapSeconds: 0 } })).status).toBe(404);
    expect((await browser.send('DELETE', `/console/api/credentials/${a.clientId}`)).status).toBe(404);
    expect((await merchantToken(a.clientId, a.clientSecret)).status, "the other merchant's secret still works").toBe(200);
  });

  it('gives a partner user partner credentials that get partner tokens', async () => {
    const p = await service.partner();
    const { browser } = await signedIn(service, { kind: 'partner', id: p.partnerId });
    const made = (await browser.send('POST', '/console/api/credentials')).body;
    expect(made.clientId).toMatch(/^prt_cl_/);
    const token = await service.send('POST', '/finance/v1/generate-token', {
      body: { clientId: made.clientId, clientSecret: made.clientSecret },
    });
    expect(token.status).toBe(200);
  });

  it(`holds at most ${maxCredentialsPerOwner} active credentials, and pages them newest first`, async () => {
    const owner = await service.services.credentials.createMerchant('Many credentials');
    const { browser } = await signedIn(service, { kind: 'merchant', id: owner.merchantId });
    const made: string[] = [owner.clientId];
    for (let i = 1; i < maxCredentialsPerOwner; i++) made.push((await browser.send('POST', '/console/api/credentials')).body.clientId);
    const refused = await browser.send('POST', '/console/api/credentials');
    expect(refused.status).toBe(422);
    expect(refused.body.type).toBe(problemType('limit-reached'));

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await browser.send('GET', '/console/api/credentials', { query: { PageSize: 7, ...(cursor ? { Cursor: cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((c: { clientId: string }) => c.clientId));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(maxCredentialsPerOwner);
    expect(new Set(seen)).toEqual(new Set(made));
    const bad = await browser.send('GET', '/console/api/credentials', { query: { Cursor: Buffer.from('event:x').toString('base64url') } });
    expect(bad.status).toBe(400);
    const over = await browser.send('GET', '/console/api/credentials', { query: { PageSize: 101 } });
    expect(over.status).toBe(400);
    expect(over.body.errors).toContainEqual(expect.objectContaining({ parameter: 'PageSize' }));
    expect((await browser.send('GET', '/console/api/credentials', { query: { PageSize: 100 } })).status).toBe(200);
  });
});
