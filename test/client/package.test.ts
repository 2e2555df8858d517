// The client as another project gets it: `npm pack` the client package (client/), install the tarball into a
// fresh project (from the npm cache where possible), and check that it brings openapi-fetch and nothing else at run
// time; then compile small programs against `@payout-service/client` with tsc and `strict` (misuse must not
// compile) and run one against a running service. The README's install step and its whole program are taken as
// written: the root script packs the tarball the README names, and the program compiles and runs unchanged in an
// ES module project and in a CommonJS one.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service.js';

const run = promisify(execFile);
const clientDir = new URL('../../client', import.meta.url).pathname;
const { name, version } = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')) as { name: string; version: string };
const readme = readFileSync(join(clientDir, 'README.md'), 'utf8');
let tarballName = '';
const typescriptVersion = (await import('typescript/package.json', { with: { type: 'json' } })).default.version;

let service: RunningService;
let project: string;

beforeAll(async () => {
  service = await startService(':memory:');
  const packed = mkdtempSync(join(tmpdir(), 'payout-client-pack-'));
  // The README's command (npm run client:pack), into a folder of the test's own.
  await run('npm', ['run', '--silent', 'client:pack', '--', '--pack-destination', packed], { cwd: join(clientDir, '..') });
  tarballName = readdirSync(packed).find((f) => f.endsWith('.tgz'))!;
  const tarball = join(packed, tarballName);
  project = mkdtempSync(join(tmpdir(), 'payout-client-consumer-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { [name]: `file:${tarball}` },
      devDependencies: { typescript: typescriptVersion, '@types/node': '20' },
    }),
  );
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
  // Install scripts stay off (npm 11's default): the client needs none.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project });
}, 240_000);
afterAll(() => service.stop());

const compile = () => run(join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: project });

describe('the packed client', () => {
  it('brings openapi-fetch and nothing else at run time', async () => {
    const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: project });
    const installed = stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
    expect(installed).toEqual([name, 'openapi-fetch', 'openapi-typescript-helpers']);
  });

  it(`compiles against ${name} with strict and talks to the service`, async () => {
    writeFileSync(
      join(project, 'main.ts'),
      `import { createMerchantClient, unwrap, ApiProblemError, ConnectionError, type AttemptLog } from '${name}';
const attempts: AttemptLog[] = [];
const merchant = createMerchantClient({
  baseUrl: process.env.BASE_URL!,
  credentials: { clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! },
  maxRetries: 1,
  timeout: 10_000,
  onAttempt: (a) => attempts.push(a),
});
const payee = await unwrap(merchant.POST('/v1/payees', { body: { payeeType: 'individual', name: 'Maria Gonzalez', EmailAddress: 'maria@example.com', address: { addressLine: '1 Main', state: 'NY', city: 'New York', country: 'US', postalCode: '10001' } } }));
const again = await unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id: payee.id } } }));
let problem = '';
try {
  // @ts-expect-error a business payee needs taxId and phoneNumber: the types refuse it, as the service does
  await unwrap(merchant.POST('/v1/payees', { body: { payeeType: 'business', name: 'N', EmailAddress: 'n@example.com', address: again.address } }));
} catch (e) {
  if (e instanceof ApiProblemError) problem = e.kind + ':' + e.errors.map((f) => f.pointer).sort().join(',');
}
const hook = await unwrap(merchant.POST('/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook' } }));
const removed: undefined = await unwrap(merchant.DELETE('/v1/webhooks', { params: { query: { id: hook.id } } }));
let unreachable = '';
try {
  await createMerchantClient({ baseUrl: process.env.CLOSED_URL!, token: 't', retryBaseDelayMs: 1 }).GET('/v1/webhooks');
} catch (e) {
  unreachable = e instanceof ConnectionError ? e.name : String(e);
}
console.log(JSON.stringify({ name: again.name, problem, removed: removed === undefined, unreachable, attempts: attempts.length }));
`,
    );
    await compile();
    const credentials = await service.services.credentials.createMerchant('Consumer');
    const { stdout } = await run('node', ['main.js'], {
      cwd: project,
      env: {
        ...process.env,
        BASE_URL: service.baseUrl,
        CLOSED_URL: 'http://127.0.0.1:9',
        CLIENT_ID: credentials.clientId,
        CLIENT_SECRET: credentials.clientSecret,
      },
    });
    expect(JSON.parse(stdout)).toEqual({
      name: 'Maria Gonzalez',
      problem: 'validation-error:#/phoneNumber,#/taxId',
      removed: true,
      unreachable: 'ConnectionError',
      attempts: 6, // the token, two creates, a read, a registration and its removal: one attempt each
    });
  });

  it('ships the types: a wrong path or a missing field does not compile', async () => {
    writeFileSync(
      join(project, 'main.ts'),
      `import { createMerchantClient } from '${name}';
const merchant = createMerchantClient({ baseUrl: 'http://localhost:3000', token: 't' });
void merchant.GET('/v1/nowhere');
void merchant.POST('/v1/payouts', { body: { PayeeId: 1, Amount: 10 } });
`,
    );
    const failure = await compile().catch((e: { stdout: string }) => e);
    expect('stdout' in failure ? failure.stdout : '').toMatch(/main\.ts\(3,.*\n[\s\S]*main\.ts\(4,/);
  });
});

describe("the client README's install step and program", () => {
  it('names the tarball npm run client:pack writes', () => {
    expect(tarballName).toBe(`${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
    expect(readme).toContain(`npm ci && npm run client:pack   # writes client/${tarballName}`);
    expect(readme).toContain(`npm install /path/to/the/clone/client/${tarballName}`);
  });

  // The first TypeScript block after "### 1. Install": the whole program.
  const program = /### 1\. Install[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!;

  it.each(['module', 'commonjs'] as const)('compiles strict and runs unchanged in a %s project', async (kind) => {
    const dir = join(project, kind);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${kind}`, private: true, type: kind }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, types: ['node'] },
        include: ['main.ts'],
      }),
    );
    writeFileSync(join(dir, 'main.ts'), program);
    await run(join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir });
    // CommonJS output requires the package; ES module output imports it.
    expect(readFileSync(join(dir, 'main.js'), 'utf8')).toMatch(kind === 'commonjs' ? /require\("@payout-service\/client"\)/ : /^import /m);
    const credentials = await service.services.credentials.createMerchant(`README ${kind}`);
    const { stdout, stderr } = await run('node', ['main.js'], {
      cwd: dir,
      env: { ...process.env, BASE_URL: service.baseUrl, CLIENT_ID: credentials.clientId, CLIENT_SECRET: credentials.clientSecret },
    });
    expect(stdout.trim()).toBe('0 payouts');
    expect(stderr).toBe('');
  });
});
