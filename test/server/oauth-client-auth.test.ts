// `POST /oauth/token` as standard OAuth clients call it, on each store: client authentication by HTTP Basic (RFC 6749
// §2.3.1, what Postman and openid-client send by default; curl -u proves the spelling), one method per request, and
// failures in RFC 6749 §5.2's form (error, error_description; application/json when the client asks only for it).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowCounts } from '../support/row-counts.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

const run = promisify(execFile);
type Body = Record<string, any>;

/** RFC 6749 §2.3.1: each part form-encoded, then `id:secret` in Base64. */
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe.each(stores)('OAuth client authentication on $name', (kind) => {
  const service = useService(kind, {}, { workers: false });
  let merchant: { merchantId: number; clientId: string; clientSecret: string };

  beforeAll(async () => {
    merchant = await service.services.credentials.createMerchant('Acme');
  });

  const token = (headers: Record<string, string>, body: string) =>
    fetch(`${service.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
  const read = async (r: Response) => ({ status: r.status, type: r.headers.get('content-type'), body: (await r.json()) as Body });

  it('issues a token to curl -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials, and the token works', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-u',
      `${merchant.clientId}:${merchant.clientSecret}`,
      '-d',
      'grant_type=client_credentials',
      `${service.baseUrl}/oauth/token`,
    ]);
    const issued = JSON.parse(stdout) as Body;
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const payees = await fetch(`${service.baseUrl}/v1/events`, { headers: { authorization: `Bearer ${issued.access_token}` } });
    expect(payees.status).toBe(200);
  });

  it('takes Basic with JSON bodies too, the scheme in any case, and the same client_id repeated in the body', async () => {
    const json = await fetch(`${service.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: basic(merchant.clientId, merchant.clientSecret).replace('Basic', 'bAsIc'),
      },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: merchant.clientId }),
    });
    expect(json.status).toBe(200);
  });

  it('answers wrong Basic credentials 401 invalid_client with a Basic challenge, as for a wrong body secret', async () => {
    for (const authorization of [
      basic(merchant.clientId, 'sk_wrong'),
      basic('mch_cl_0000000000000000', merchant.clientSecret),
      'Basic !!!',
      'Basic Zm9v',
    ]) {
      const response = await read(await token({ authorization }, 'grant_type=client_credentials'));
      expect(response.status, authorization).toBe(401);
      expect(response.body).toMatchObject({
        type: 'https://payouts.example/problems/invalid-client',
        error: 'invalid_client',
        error_description: 'The Client ID or Client Secret is wrong, or the credentials were revoked.',
      });
    }
    const challenged = await token({ authorization: basic(merchant.clientId, 'sk_wrong') }, 'grant_type=client_credentials');
    expect(challenged.headers.get('www-authenticate')).toBe('Basic realm="payouts"');
  });

  it('refuses two methods at once as 400 invalid_request naming the field, and no credentials at all as 401 invalid_client', async () => {
    const both = await read(
      await token(
        { authorization: basic(merchant.clientId, merchant.clientSecret) },
        `grant_type=client_credentials&client_secret=${merchant.clientSecret}`,
      ),
    );
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ error: 'invalid_request', errors: [{ pointer: '#/client_secret' }] });
    const otherId = await read(
      await token(
        { authorization: basic(merchant.clientId, merchant.clientSecret) },
        'grant_type=client_credentials&client_id=someone_else',
      ),
    );
    expect(otherId.body).toMatchObject({ error: 'invalid_request', errors: [{ pointer: '#/client_id' }] });
    for (const body of ['grant_type=client_credentials', `grant_type=client_credentials&client_id=${merchant.clientId}`]) {
      const none = await token({}, body);
      expect(none.headers.get('www-authenticate'), body).toBe('Basic realm="payouts"');
      const read_ = await read(none);
      expect(read_, body).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', type: 'https://payouts.example/problems/invalid-client' },
      });
      expect(read_.body.error_description).toBe(read_.body.detail);
    }
  });

  it('names an unsupported grant type, and answers application/json to a client that asks only for it', async () => {
    const grant = await read(await token({ authorization: basic(merchant.clientId, merchant.clientSecret) }, 'grant_type=password'));
    expect(grant).toMatchObject({
      status: 400,
      type: expect.stringMatching(/^application\/problem\+json/),
      body: { error: 'unsupported_grant_type' },
    });
    const asked = await read(await token({ accept: 'application/json' }, 'grant_type=password&client_id=a&client_secret=b'));
    expect(asked.type).toMatch(/^application\/json/);
    expect(asked.body).toMatchObject({ error: 'unsupported_grant_type', status: 400 });
    const unauthorized = await read(
      await token({ accept: 'application/json', authorization: basic(merchant.clientId, 'sk_wrong') }, 'grant_type=client_credentials'),
    );
    expect(unauthorized).toMatchObject({
      status: 401,
      type: expect.stringMatching(/^application\/json/),
      body: { error: 'invalid_client' },
    });
    const both = await read(await token({ accept: 'application/json, application/problem+json' }, 'grant_type=password'));
    expect(both.type).toMatch(/^application\/problem\+json/);
  });

  it('takes an empty scope as none, and refuses a named scope 400 invalid_scope naming it, without counting a failure', async () => {
    const auth = { authorization: basic(merchant.clientId, merchant.clientSecret) };
    for (const body of ['grant_type=client_credentials&scope=', 'grant_type=client_credentials&scope=%20']) {
      const issued = await read(await token(auth, body));
      expect(issued.status, body).toBe(200);
      expect(issued.body.token_type).toBe('Bearer');
    }
    const before = await rowCounts(service.services.store);
    for (const [body, shown] of [
      ['grant_type=client_credentials&scope=admin', 'admin'],
      ['grant_type=client_credentials&scope=payouts%3Aread%20payees', 'payouts:read payees'],
    ] as const) {
      const refused = await read(await token(auth, body));
      expect(refused, body).toMatchObject({
        status: 400,
        type: expect.stringMatching(/^application\/problem\+json/),
        body: { type: 'https://payouts.example/problems/invalid-scope', error: 'invalid_scope', errors: [{ pointer: '#/scope' }] },
      });
      expect(refused.body.errors[0].detail).toContain(`(${shown})`);
      expect(refused.body.error_description).toBe(refused.body.detail);
    }
    // Past its bound the validator refuses it, in the same terms; as JSON to a client that asks only for JSON.
    const long = await read(
      await token({ ...auth, accept: 'application/json' }, `grant_type=client_credentials&scope=${'s'.repeat(1001)}`),
    );
    expect(long).toMatchObject({ status: 400, type: expect.stringMatching(/^application\/json/), body: { error: 'invalid_scope' } });
    // A refused scope is no failed guess: the right secret goes on being answered, and nothing was written.
    expect(await rowCounts(service.services.store)).toEqual(before);
    const json = await fetch(`${service.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: merchant.clientId,
        client_secret: merchant.clientSecret,
        scope: 'admin',
      }),
    });
    expect(((await json.json()) as Body).error).toBe('invalid_scope');
  });

  it('gives every failure status of the token operation its OAuth error code', async () => {
    const tooLarge = await read(await token({}, `grant_type=client_credentials&client_id=${'a'.repeat(200_000)}`));
    expect(tooLarge).toMatchObject({ status: 413, body: { error: 'invalid_request' } });
    const unsupported = await fetch(`${service.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'grant_type=client_credentials',
    });
    expect(unsupported.status).toBe(415);
    expect(((await unsupported.json()) as Body).error).toBe('invalid_request');
    for (const r of [tooLarge.body, (await read(await token({}, 'grant_type=password'))).body]) expect(r.error_description).toBe(r.detail);
  });

  it('keeps other operations and statuses problem+json whatever the Accept', async () => {
    const other = await fetch(`${service.baseUrl}/v1/events`, { headers: { accept: 'application/json' } });
    expect(other.status).toBe(401);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
