// `npm run admin -- ...` against the same DATABASE_URL as the server: the printed credentials work, the
// secret is stored only as a hash, and rotate-secret replaces it and ends the tokens issued under the old one
// (within the bound a running instance may trust a client's generation, passed on the service's clock).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createMerchantClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { generationCacheSeconds } from '../../server/domain/auth/client-generations.js';
import { passwordRules } from '../../server/domain/console/passwords.js';
import { send } from '../support/requests.js';
import { startService } from '../support/service.js';
import { stores } from '../support/stores.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

const env = (databaseUrl: string) => ({ cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } });
const secret = expect.stringMatching(/^sk_[\w-]{43}$/);

describe.each(stores)('npm run admin on $name', (kind) => {
  it('creates a merchant and a partner whose printed credentials get tokens, and rotates their secrets', async () => {
    const { url: databaseUrl, drop } = await kind.fresh();
    // What `npm run admin` runs (package.json: `tsx server/admin/cli.ts`), without an npm process per call; the
    // suite below goes through npm itself.
    const admin = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], env(databaseUrl));
      return JSON.parse(stdout); // with --json, stdout is the JSON alone
    };
    const created = await admin('create-merchant', '--name', 'Acme Corp', '--json');
    expect(created).toEqual({ merchantId: 1, clientId: expect.stringMatching(/^mch_cl_/), clientSecret: secret });
    const partner = await admin('create-partner', '--name', 'Partner', '--json');
    expect(partner).toEqual({ partnerId: 1, clientId: expect.stringMatching(/^prt_cl_/), clientSecret: secret });

    let offset = 0;
    const service = await startService(databaseUrl, {}, { workers: false, now: () => Date.now() + offset });
    const merchantClient = (clientSecret: string) =>
      createMerchantClient({ baseUrl: service.baseUrl, credentials: { clientId: created.clientId, clientSecret } });
    const tokenOf = async (caller: 'merchant' | 'partner', clientSecret: string) => {
      const answer =
        caller === 'merchant'
          ? await send(service.baseUrl, 'POST', '/oauth/token', {
              body: { client_id: created.clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
            })
          : await send(service.baseUrl, 'POST', '/finance/v1/generate-token', { body: { clientId: partner.clientId, clientSecret } });
      return answer.body.access_token as string;
    };
    const read = (caller: 'merchant' | 'partner', token: string) =>
      send(service.baseUrl, 'GET', caller === 'merchant' ? '/v1/webhooks' : '/finance/v1/partner/list', { token });
    try {
      const stored = await service.services.store.db.selectFrom('api_clients').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(created.clientSecret);
      expect(await unwrap(merchantClient(created.clientSecret).GET('/v1/webhooks'))).toEqual([]);
      const tokens = { merchant: await tokenOf('merchant', created.clientSecret), partner: await tokenOf('partner', partner.clientSecret) };
      for (const caller of ['merchant', 'partner'] as const) expect((await read(caller, tokens[caller])).status).toBe(200);

      const rotated = await admin('rotate-secret', '--client-id', created.clientId, '--json');
      expect(rotated.clientSecret).not.toBe(created.clientSecret);
      const rotatedPartner = await admin('rotate-secret', '--client-id', partner.clientId, '--json');
      const oldSecret = unwrap(merchantClient(created.clientSecret).GET('/v1/webhooks'));
      await expect(oldSecret).rejects.toMatchObject({ status: 401, error: 'invalid_client' });

      // The CLI is another process: this instance notices once its cached generations run out.
      offset += generationCacheSeconds * 1000;
      for (const caller of ['merchant', 'partner'] as const) {
        const refused = await read(caller, tokens[caller]);
        expect(refused.status, caller).toBe(401);
        expect(refused.body).toMatchObject({ error: 'invalid_token', detail: expect.stringMatching(/^The access token was revoked/) });
      }
      expect(await unwrap(merchantClient(rotated.clientSecret).GET('/v1/webhooks'))).toEqual([]);
      expect((await read('partner', await tokenOf('partner', rotatedPartner.clientSecret))).status).toBe(200);
    } finally {
      await service.stop();
      await drop();
    }
  });
});

describe.each(stores)('npm run admin -- unlink on $name', (kind) => {
  it('ends a link, logs who did it, and says why when there is no link to end', async () => {
    const { url: databaseUrl, drop } = await kind.fresh();
    const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], env(databaseUrl));
    const merchant = JSON.parse((await admin('create-merchant', '--name', 'Acme', '--json')).stdout);
    const partner = JSON.parse((await admin('create-partner', '--name', 'Partner', '--json')).stdout);
    const ids = ['--partner', String(partner.partnerId), '--merchant', String(merchant.merchantId)];
    const linked = await admin('link', ...ids, '--json');
    expect(JSON.parse(linked.stdout)).toEqual({ partnerId: partner.partnerId, merchantId: merchant.merchantId, linked: true });
    expect(JSON.parse(linked.stderr)).toMatchObject({ msg: 'admin audit', action: 'link', partnerId: 1, merchantId: 1 });

    const service = await startService(databaseUrl, {}, { workers: false });
    try {
      const token = (await service.services.tokens.issue({ kind: 'partner', partnerId: partner.partnerId })).access_token;
      const merchants = async () => (await send(service.baseUrl, 'GET', '/finance/v1/partner/list', { token })).body.data;
      expect(await merchants()).toEqual([expect.objectContaining({ merchantId: merchant.merchantId })]);

      const unlinked = await admin('unlink', ...ids, '--json');
      expect(JSON.parse(unlinked.stdout)).toEqual({ partnerId: partner.partnerId, merchantId: merchant.merchantId, linked: false });
      expect(unlinked.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(unlinked.stderr)).toMatchObject({
        level: 30,
        msg: 'admin audit',
        action: 'unlink',
        partnerId: partner.partnerId,
        merchantId: merchant.merchantId,
        operator: expect.any(String),
      });
      expect(await merchants()).toEqual([]);
      // What the link allowed now answers as for a merchant never linked (test/server/partner-unlink.test.ts: every operation).
      const recipient = await send(service.baseUrl, 'POST', '/finance/v1/recipient-ach', {
        token,
        body: {
          email: 'payee@example.com',
          name: 'Maria Gonzalez',
          type: 'INDIVIDUAL',
          merchantId: merchant.merchantId,
          ach: { accountNumber: '000123456789', bankAccountType: 'CHECKING', routingNumber: '021000021' },
        },
      });
      expect(recipient.status).toBe(404);

      // For a person at a terminal (what a quick start's reader sees), the same facts as one sentence.
      const relinked = await run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', 'link', ...ids, '--json'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, ADMIN_AUDIT_FORMAT: 'text' },
      });
      expect(relinked.stderr).toMatch(/^Audit: link \(partnerId 1, merchantId 1\) by \S+ at \d{4}-\d\d-\d\dT[\d:.]+Z\.\n$/);
      await admin('unlink', ...ids);

      await expect(admin('unlink', ...ids)).rejects.toMatchObject({
        code: 2,
        stdout: '',
        stderr: 'Partner 1 is not linked to merchant 1: nothing to unlink.\n',
      });
      await expect(admin('unlink', '--partner', '9', '--merchant', '1')).rejects.toMatchObject({ code: 2, stderr: 'No partner 9.\n' });
      await expect(admin('unlink', '--partner', '1', '--merchant', '9', '--json')).rejects.toMatchObject({
        code: 2,
        stderr: 'No merchant 9.\n',
      });
    } finally {
      await service.stop();
      await drop();
    }
  });
});

it('shows, in the README and the guides, only console passwords the CLI accepts', async () => {
  const pages = ['README.md', 'server/admin/README.md', 'docs/guides/web-console.md', 'docs/guides/quick-start.md'];
  const shown: string[] = [];
  for (const page of pages)
    for (const m of (await readFile(`${root}${page}`, 'utf8')).matchAll(/create-console-user[^\n]*--password '([^']*)'/g))
      shown.push(m[1]!);
  expect(shown.length).toBeGreaterThanOrEqual(3);
  for (const password of shown) expect(password.length, password).toBeGreaterThanOrEqual(passwordRules.minLength);
});

describe.each(stores)('npm run admin -- create-console-user on $name', (kind) => {
  // Seven runs of the CLI, each a process of its own.
  it('makes a console user of a merchant or a partner who signs in with that password, never printing it', async () => {
    const { url: databaseUrl, drop } = await kind.fresh();
    const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], env(databaseUrl));
    const password = 'a long console password 42';
    const merchant = JSON.parse((await admin('create-merchant', '--name', 'Acme', '--json')).stdout);
    const partner = JSON.parse((await admin('create-partner', '--name', 'Partner', '--json')).stdout);
    const made = await admin(
      'create-console-user',
      '--merchant',
      String(merchant.merchantId),
      '--email',
      'Ada@Acme.example',
      '--password',
      password,
      '--json',
    );
    expect(JSON.parse(made.stdout)).toEqual({
      userId: expect.stringMatching(/^cu_/),
      email: 'Ada@Acme.example',
      merchantId: merchant.merchantId,
    });
    const ofPartner = await admin(
      'create-console-user',
      '--partner',
      String(partner.partnerId),
      '--email',
      'ops@partner.example',
      '--password',
      password,
    );
    expect(ofPartner.stdout).toMatch(/^Console user cu_\w+ \(ops@partner\.example\) of partner 1\./);
    for (const out of [made, ofPartner]) expect(out.stdout + out.stderr).not.toContain(password);
    expect(JSON.parse(made.stderr.split('\n').find((l) => l.startsWith('{'))!)).toMatchObject({
      msg: 'admin audit',
      action: 'create-console-user',
    });

    const refusals: [string[], string][] = [
      [
        ['--merchant', '1', '--email', 'ada@acme.EXAMPLE', '--password', password],
        'A console user with the email address ada@acme.EXAMPLE exists already.',
      ],
      [['--merchant', '1', '--email', 'short@acme.example', '--password', 'too short'], 'The password must be 12 to 200 characters'],
      [
        ['--merchant', '1', '--partner', '1', '--email', 'both@acme.example', '--password', password],
        'Give one of --merchant and --partner.',
      ],
    ];
    for (const [args, message] of refusals) {
      const refused = await admin('create-console-user', ...args).then(
        () => undefined,
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(refused, args.join(' ')).toMatchObject({ code: 2, stdout: '' });
      expect(refused!.stderr).toContain(message);
      expect(refused!.stderr).not.toContain(password);
      expect(refused!.stderr).not.toContain('too short');
    }

    const service = await startService(databaseUrl, {}, { workers: false });
    try {
      const stored = await service.services.store.db.selectFrom('console_users').selectAll().execute();
      expect(stored).toHaveLength(2);
      expect(JSON.stringify(stored)).not.toContain(password);
      expect(stored[0]!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
      const signIn = (email: string, pass: string) =>
        send(service.baseUrl, 'POST', '/console/api/sessions', { body: { email, password: pass }, headers: { origin: service.baseUrl } });
      expect((await signIn('ada@acme.example', password)).body.owner).toMatchObject({ kind: 'merchant', id: merchant.merchantId });
      expect((await signIn('ops@partner.example', password)).body.owner).toMatchObject({ kind: 'partner', id: partner.partnerId });
      expect((await signIn('ada@acme.example', 'a long console password 43')).status).toBe(401);
    } finally {
      await service.stop();
      await drop();
    }
  }, 120_000);
});

describe('npm run admin', () => {
  const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', ...args], env(':memory:'));
  const commands = {
    'create-merchant': ['--name <name>', '--json'],
    'create-partner': ['--name <name>', '--json'],
    link: ['--partner <id>', '--merchant <id>', '--json'],
    unlink: ['--partner <id>', '--merchant <id>', '--json'],
    'rotate-secret': ['--client-id <id>', '--json'],
    'create-console-user': ['--merchant <id>', '--partner <id>', '--email <address>', '--password <password>', '--json'],
  };

  it('explains its usage and exits 2 on a bad command', async () => {
    await expect(
      run('npm', ['run', '-s', 'admin', '--', 'create-merchant'], { cwd: root, env: { ...process.env, DATABASE_URL: ':memory:' } }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('needs --name') });
    await expect(cli('create-merchant', '--name', 'A', '--nope')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown option '--nope'[\s\S]*Usage: npm run --silent admin -- create-merchant --name <name>/),
    });
    await expect(cli('bogus')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command bogus.') });
  });

  it('prints on --json only the JSON on stdout under `npm run --silent`, and what it tells people on stderr', async () => {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'admin', '--', 'create-merchant', '--name', 'Acme', '--json'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: ':memory:' },
    });
    expect(JSON.parse(stdout)).toEqual({ merchantId: 1, clientId: expect.stringMatching(/^mch_cl_/), clientSecret: secret });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('The Client Secret is shown only now');
  });

  it.each([['--help'], ['-h'], ['help']])('lists every command for %s and exits 0', async (flag) => {
    const { stdout } = await cli(flag);
    expect(stdout).toContain('Usage: npm run --silent admin -- <command> [options]');
    for (const name of Object.keys(commands)) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it.each(Object.entries(commands))('prints the options of %s for --help, -h and help <command>', async (name, options) => {
    for (const args of [
      [name, '--help'],
      [name, '-h'],
      ['help', name],
      [name, '--name', 'x', '--help'],
    ]) {
      const { stdout } = await cli(...args);
      expect(stdout, args.join(' ')).toContain(`Usage: npm run --silent admin -- ${name} `);
      for (const option of [...options, '-h, --help'])
        expect(stdout, `${args.join(' ')}: ${option}`).toMatch(new RegExp(`^  ${option} `, 'm'));
    }
  });
});
