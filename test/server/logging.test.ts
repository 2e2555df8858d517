// The service's logs: structured JSON lines with request ids, and no credential in them, even when a
// caller sends secrets and tokens on every request.
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/http/app.js';
import { loadConfig } from '../../server/platform/config.js';
import { createLogger } from '../../server/platform/log.js';
import { createServices, workersOf } from '../../server/domain/services.js';
import { openStore } from '../../server/platform/store/database.js';

describe('logs', () => {
  it('carry request ids and never a client secret or a token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const config = { ...loadConfig({}), databaseUrl: ':memory:', sandboxStepMs: 0, logLevel: 'debug' };
    const store = await openStore(':memory:');
    const log = createLogger('debug', sink);
    const services = await createServices(store, config, log);
    const server = createApp(services, config).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const m = await services.credentials.createMerchant('Acme');
      const token = (await (
        await fetch(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'trace-42' },
          body: JSON.stringify({ client_id: m.clientId, client_secret: m.clientSecret, grant_type: 'client_credentials' }),
        })
      ).json()) as { access_token: string };
      await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: m.clientId, client_secret: 'sk_wrong_secret_value', grant_type: 'client_credentials' }),
      });
      await fetch(`${base}/v1/payees/1`, { headers: { authorization: `Bearer ${token.access_token}` } });
      log.info(
        { req: { headers: { authorization: `Bearer ${token.access_token}` } }, body: { client_secret: m.clientSecret } },
        'a careless log line',
      );
      const all = lines.join('');
      expect(all).not.toContain(m.clientSecret);
      expect(all).not.toContain('sk_wrong_secret_value');
      expect(all).not.toContain(token.access_token);
      const requests = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
      expect(requests.find((e) => e.path === '/oauth/token')).toMatchObject({ requestId: 'trace-42', status: 200 });
      expect(requests.every((e) => typeof e.requestId === 'string' && typeof e.ms === 'number')).toBe(true);
    } finally {
      server.close();
      await Promise.all(workersOf(services).map((w) => w.stop()));
      await store.close();
    }
  });
});
