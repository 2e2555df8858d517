// The client as another project gets it: `npm pack` this project, install the tarball into a fresh
// project, compile a small program against `payout-service/client` with tsc (misuse must not compile),
// and run it against a running service.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const typescriptVersion = (await import('typescript/package.json', { with: { type: 'json' } })).default.version;

let service: RunningService;
let project: string;

beforeAll(async () => {
  service = await startService(':memory:');
  const packed = mkdtempSync(join(tmpdir(), 'payout-pack-'));
  await run('npm', ['pack', '--pack-destination', packed], { cwd: root });
  const tarball = join(packed, readdirSync(packed).find((f) => f.endsWith('.tgz'))!);
  project = mkdtempSync(join(tmpdir(), 'payout-consumer-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        lib: ['ES2023', 'DOM'],
      },
      include: ['main.ts'],
    }),
  );
  // Dependencies come from the npm cache where possible; install scripts stay off (npm 11's default).
  await run(
    'npm',
    [
      'install',
      tarball,
      `typescript@${typescriptVersion}`,
      '@types/node@20',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { cwd: project },
  );
}, 240_000);
afterAll(() => service.stop());

describe('the packed client', () => {
  it('compiles against payout-service/client and talks to the service', async () => {
    writeFileSync(
      join(project, 'main.ts'),
      `import { createMerchantClient, unwrap, ApiProblemError } from 'payout-service/client';
const merchant = createMerchantClient({ baseUrl: process.env.BASE_URL!, credentials: { clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! } });
const payee = await unwrap(merchant.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Maria Gonzalez', EmailAddress: 'maria@example.com', address: { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' } } }));
const again = await unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id: payee.id } } }));
let problem = '';
try {
  await unwrap(merchant.POST('/v1/payees', { body: { payeeType: 'business', name: 'N', EmailAddress: 'n@example.com', address: again.address } }));
} catch (e) {
  if (e instanceof ApiProblemError) problem = e.kind + ':' + e.errors.map((f) => f.pointer).sort().join(',');
}
console.log(JSON.stringify({ name: again.name, problem }));
`,
    );
    await run(join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: project });
    const credentials = await service.services.credentials.createMerchant('Consumer');
    const { stdout } = await run('node', ['main.js'], {
      cwd: project,
      env: { ...process.env, BASE_URL: service.baseUrl, CLIENT_ID: credentials.clientId, CLIENT_SECRET: credentials.clientSecret },
    });
    expect(JSON.parse(stdout)).toEqual({ name: 'Maria Gonzalez', problem: 'validation-error:#/phoneNumber,#/taxId' });
  });

  it('ships the types: a wrong path or a missing field does not compile', async () => {
    writeFileSync(
      join(project, 'main.ts'),
      `import { createMerchantClient } from 'payout-service/client';
const merchant = createMerchantClient({ baseUrl: 'http://localhost:3000', token: 't' });
void merchant.GET('/v1/nowhere');
void merchant.POST('/v1/payouts', { body: { PayeeId: 1, Amount: 10 } });
`,
    );
    const failure = await run(join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: project }).catch(
      (e: { stdout: string }) => e,
    );
    expect('stdout' in failure ? failure.stdout : '').toMatch(/main\.ts\(3,.*\n[\s\S]*main\.ts\(4,/);
  });
});
