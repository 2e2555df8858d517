// `npm run admin -- ...` against the same DATABASE_URL as the server: the printed credentials work, the
// secret is stored only as a hash, and rotate-secret replaces it.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { startService } from '../support/service.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

describe('npm run admin', () => {
  it('creates a merchant whose printed credentials get a token, and rotates its secret', async () => {
    const databaseUrl = join(mkdtempSync(join(tmpdir(), 'payout-admin-')), 'store.sqlite');
    const admin = (...args: string[]) => run('npm', ['run', '-s', 'admin', '--', ...args], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } });
    const { stdout } = await admin('create-merchant', '--name', 'Acme Corp', '--json');
    const created = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(created).toEqual({ merchantId: 1, clientId: expect.stringMatching(/^mch_cl_/), clientSecret: expect.stringMatching(/^sk_[\w-]{43}$/) });

    const service = await startService(databaseUrl);
    try {
      const stored = await service.services.store.db.selectFrom('api_clients').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(created.clientSecret);
      const client = createMerchantClient({ baseUrl: service.baseUrl, credentials: { clientId: created.clientId, clientSecret: created.clientSecret } });
      expect(await unwrap(client.GET('/v1/webhooks'))).toEqual([]);

      const rotated = JSON.parse((await admin('rotate-secret', '--client-id', created.clientId, '--json')).stdout.trim().split('\n').at(-1)!);
      expect(rotated.clientSecret).not.toBe(created.clientSecret);
      const old = createMerchantClient({ baseUrl: service.baseUrl, credentials: { clientId: created.clientId, clientSecret: created.clientSecret } });
      await expect(unwrap(old.GET('/v1/webhooks'))).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
    } finally {
      await service.stop();
    }
  });

  it('explains its usage and exits 2 on a bad command', async () => {
    await expect(run('npm', ['run', '-s', 'admin', '--', 'create-merchant'], { cwd: root, env: { ...process.env, DATABASE_URL: ':memory:' } })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('needs --name') });
  });
});
