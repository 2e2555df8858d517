// Generator-friendliness: a second, independent generator (@hey-api/openapi-ts 0.95, with its fetch client
// plugin) generates a client from each bundled document into a temp folder, and the TypeScript compiler
// (strict) compiles every output with zero errors. A small usage file per group goes along: a valid call
// must compile and an invalid one must not (`@ts-expect-error`), so types that collapsed to `any` or
// `unknown` would fail too. The merchant client then talks to the real service.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, type Group } from '../../generated/index.js';
import { operationsOf } from '../support/contract.js';
import { startService, type RunningService } from '../support/service.js';
import { individual } from '../support/merchants.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'payout-hey-api-'));

// One call each generated SDK must type: `valid` compiles, `invalid` (one field wrong or missing) must not.
const usage: Record<Group, { fn: string; valid: string; invalid: string }> = {
  merchant: { fn: 'createPayout', valid: `{ PayeeId: 1, Amount: 10, Currency: 'USD' }`, invalid: `{ PayeeId: 1, Amount: 10 }` },
  platform: {
    fn: 'calculateFees',
    valid: `{ destinationCountry: 'GB', currency: 'GBP', rail: 'SWIFT', amount: 1000 }`,
    invalid: `{ destinationCountry: 'GB', currency: 'GBP', rail: 'PIGEON', amount: 1000 }`,
  },
  partner: {
    fn: 'createPaymentRequest',
    valid: `{ payeeId: 1, amount: 10, currency: 'USD', paymentMethodType: 'STANDARD', description: 'x', merchantId: 1 }`,
    invalid: `{ payeeId: 1, amount: 10, currency: 'USD', paymentMethodType: 'CASH', description: 'x', merchantId: 1 }`,
  },
  banking: {
    fn: 'createInternalTransfer',
    valid: `{ accountId: 1, toAccountId: 2, amount: 100, currency: 'USD' }`,
    invalid: `{ accountId: 1, toAccountId: 2, amount: '100', currency: 'USD' }`,
  },
  counterparty: { fn: 'searchTransactions', valid: `{ transactionStatus: ['completed'] }`, invalid: `{ transactionStatus: ['lost'] }` },
  console: {
    fn: 'signInToConsole',
    valid: `{ email: 'ada@northwind.example', password: 'a password' }`,
    invalid: `{ email: 'ada@northwind.example' }`,
  },
};

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    // The fetch client uses the DOM's fetch types (BodyInit, RequestInit); Node's types for the rest.
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    strict: true,
    noUncheckedIndexedAccess: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['**/*.ts'],
};

let compilerOutput = '';
let compilerExit = 0;

beforeAll(async () => {
  for (const group of groups) {
    await createClient({
      input: join(root, 'generated', group, 'openapi.json'),
      output: join(out, group),
      plugins: ['@hey-api/client-fetch'],
      logs: { level: 'silent', file: false },
    });
    const { fn, valid, invalid } = usage[group];
    writeFileSync(
      join(out, group, 'usage.ts'),
      [
        `import { ${fn} } from './index.js';`,
        `export const valid = () => ${fn}({ body: ${valid} });`,
        `// @ts-expect-error the contract does not allow this body`,
        `export const invalid = () => ${fn}({ body: ${invalid} });`,
        '',
      ].join('\n'),
    );
  }
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(out, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  try {
    await run(join(root, 'node_modules/.bin/tsc'), ['-p', join(out, 'tsconfig.json')], { cwd: out });
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    compilerExit = e.code ?? 1;
    compilerOutput = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.each(groups)('the @hey-api/openapi-ts client of %s', (group) => {
  it('has one SDK function per operation', () => {
    const sdk = readFileSync(join(out, group, 'sdk.gen.ts'), 'utf8');
    const exported = [...sdk.matchAll(/^export const (\w+) = </gm)].map((m) => m[1]).sort();
    expect(exported).toEqual(
      operationsOf(group)
        .map((o) => o.op.operationId as string)
        .sort(),
    );
  });

  it('compiles with tsc --strict, zero errors, and types its request bodies', () => {
    const errors = compilerOutput.split('\n').filter((l) => l.startsWith(`${group}/`));
    expect(errors).toEqual([]);
  });
});

it('tsc found no error at all', () => {
  expect(compilerOutput).toBe('');
  expect(compilerExit).toBe(0);
});

describe('the generated merchant client against the real service', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(':memory:');
  });
  afterAll(() => service.stop());

  it('gets a token, creates a payee and reads it back', async () => {
    // Imported from the temp folder: the generated TypeScript, run as it is.
    const sdk = await import(join(out, 'merchant', 'index.ts'));
    const { client } = await import(join(out, 'merchant', 'client.gen.ts'));
    const c = await service.services.credentials.createMerchant('Hey');
    client.setConfig({ baseUrl: service.baseUrl });
    const token = await sdk.issueToken({
      body: { client_id: c.clientId, client_secret: c.clientSecret, grant_type: 'client_credentials' },
    });
    expect(token.response.status).toBe(200);
    client.setConfig({ baseUrl: service.baseUrl, auth: () => token.data.access_token });
    const created = await sdk.createPayee({ body: individual });
    expect(created.response.status).toBe(201);
    const read = await sdk.getPayee({ path: { id: created.data.id } });
    expect(read.data).toMatchObject({ id: created.data.id, name: individual.name });
    const listed = await sdk.listPayouts({ query: { PayeeId: created.data.id, PageSize: 5 } });
    expect(listed.data).toMatchObject({ data: [] });
  });
});
