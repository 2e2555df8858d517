// `npm run diff -- <git ref>` (scripts/contract/diff.ts), run as a process: against HEAD of this repository it finds
// no breaking change; in a temporary repository (in the temp folder, holding this working tree's documents as its
// one commit) it reports a group the ref lacks as new, and classifies one change for each line of the
// compatibility policy (openapi/DECISIONS.md "Compatibility"): the additive ones together in one run (exit 0),
// the breaking ones together in another (exit 1), each listed by `--all` under its kind with method, path and
// location. This repository's history, index and working tree are only read.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument, stringify } from 'yaml';
import { groups } from '../../generated/index.js';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const script = join(root, 'scripts/contract/diff.ts');

async function diff(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(tsx, [script, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run diff in this repository', () => {
  it('reports no breaking change against HEAD (exit 0), with a summary line per group', async () => {
    const { code, stdout, stderr } = await diff(root, 'HEAD');
    expect(stderr).toBe('');
    for (const group of groups) expect(stdout).toMatch(new RegExp(`^${group}: 0 breaking, \\d+ non-breaking, \\d+ annotation`, 'm'));
    expect(stdout).toContain('No breaking changes.');
    expect(code).toBe(0);
  });

  it('answers a usage error without a ref, and for a ref that names no commit (exit 2)', async () => {
    const none = await diff(root);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: npm run diff -- <git ref>');
    const unknown = await diff(root, 'no-such-ref-anywhere');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"no-such-ref-anywhere" names no commit');
  });
});

describe('npm run diff in a temporary repository', () => {
  const repo = mkdtempSync(join(tmpdir(), 'payout-diff-repo-'));
  const git = (...args: string[]) =>
    exec('git', [
      '-C',
      repo,
      '-c',
      'user.name=Diff Test',
      '-c',
      'user.email=diff-test@example.invalid',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ]);
  /** This working tree's documents, copied over the temp repository's (whatever an earlier run changed). */
  const copyContract = () => {
    rmSync(join(repo, 'openapi'), { recursive: true, force: true });
    cpSync(join(root, 'openapi'), join(repo, 'openapi'), { recursive: true });
    cpSync(join(root, 'redocly.yaml'), join(repo, 'redocly.yaml'));
  };
  const edit = (file: string, change: (doc: any) => void) => {
    const path = join(repo, 'openapi', file);
    const doc = parse(readFileSync(path, 'utf8'));
    change(doc);
    writeFileSync(path, stringify(doc));
  };
  const schema = (file: string, change: (s: any) => void) => edit(`shared/schemas/${file}`, change);

  beforeAll(async () => {
    await git('init', '-q');
    copyContract();
    // The ref's contract lacks the counterparty group.
    rmSync(join(repo, 'openapi/counterparty'), { recursive: true });
    const config = parseDocument(readFileSync(join(repo, 'redocly.yaml'), 'utf8'));
    config.deleteIn(['apis', 'counterparty']);
    writeFileSync(join(repo, 'redocly.yaml'), config.toString());
    await git('add', '-A');
    await git('commit', '-q', '-m', 'before');
  }, 60_000);
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  describe('additive changes (one run)', () => {
    let run: Awaited<ReturnType<typeof diff>>;
    let listed: Listed[];
    beforeAll(async () => {
      copyContract();
      schema('Payout.yaml', (s) => {
        s.properties.SettledOn = { type: 'string', format: 'date-time', maxLength: 40, description: 'When the money arrived.' };
      });
      schema('PayoutReasonCode.yaml', (s) => s.enum.push('beneficiary_deceased'));
      // A new event type: its webhook, and its value in the registration's (closed) and the record's (open) lists.
      edit('merchant/openapi.yaml', (d) => {
        d.webhooks['payout.settled'] = { $ref: '../shared/webhooks/payout.failed.yaml' };
        d.paths['/v1/payout-summaries/{PayoutUniqueReference}'] = { $ref: '../shared/paths/v1_payouts_{PayoutUniqueReference}.yaml' };
      });
      edit('merchant/schemas/WebhookEventType.yaml', (s) => s.enum.push('payout.settled'));
      schema('PayoutCreateRequest.yaml', (s) => {
        s.properties.Purpose = { type: 'string', maxLength: 100, pattern: '^[^\\n]*$', description: 'Why the payout is made.' };
      });
      edit('shared/paths/v1_payouts.yaml', (item) => {
        item.get.parameters.push({
          name: 'Reference',
          in: 'query',
          required: false,
          allowReserved: true,
          description: 'Only the payout with this reference.',
          schema: { type: 'string', maxLength: 40, pattern: '^po_[0-9a-z]+$' },
        });
      });
      edit('platform/schemas/PayoutRail.yaml', (s) => s.enum.push('RTP'));
      // Documentation: a kind added to the problem catalogue, and an example's problem type changed.
      schema('Problem.yaml', (s) => {
        s.properties.type['x-problem-types']['payout-held'] = { status: 409, title: 'The payout is held.' };
      });
      edit('shared/responses/OAuthBadRequest.yaml', (r) => {
        r.content['application/problem+json'].examples.twoMethods.value.type = 'https://payouts.example/problems/malformed-json';
      });
      run = await diff(repo, 'HEAD', '--all');
      listed = parseListed(run.stdout);
    }, 120_000);

    it('exits 0 and reports a group absent at the ref as new', () => {
      expect(run.stdout).toMatch(/^counterparty: new \(absent at HEAD\)$/m);
      expect(run.stdout).toMatch(/^merchant: 0 breaking, [1-9]\d* non-breaking/m);
      expect(run.stdout).toMatch(/^platform: 0 breaking, [1-9]\d* non-breaking/m);
      expect(run.stdout).toContain('No breaking changes.');
      expect(run.code).toBe(0);
    });

    it("reads a problem kind added to the catalogue, and an example's changed values, as annotations", () => {
      const token = listed.filter((c) => c.api === 'merchant' && c.path === '/oauth/token');
      const example = token.filter((c) => /examples\/twoMethods/.test(c.location));
      expect(example.map((c) => c.kind)).toEqual(['annotation']);
      expect(listed.filter((c) => c.kind !== 'annotation' && /x-problem-type|payout-held/.test(c.location))).toEqual([]);
    });

    it.each<[string, Expected]>([
      [
        'a new response field',
        ['merchant', 'GET', '/v1/payouts/{PayoutUniqueReference}', /^response 200 \(application\/json\) › SettledOn$/],
      ],
      [
        'a new value of an open enumeration',
        ['merchant', 'GET', '/v1/payouts/{PayoutUniqueReference}', /^response 200 \(application\/json\) › Reasons\[\]code anyOf\[0\] enum/],
      ],
      ['a new event type (its webhook)', ['merchant', 'WEBHOOK', 'payout.settled', /^operation$/]],
      [
        'a new event type (an open list of it in a response)',
        ['merchant', 'GET', '/v1/webhooks', /^response 200 .*events\[\] anyOf\[0\] enum/],
      ],
      ['a new operation', ['merchant', 'GET', '/v1/payout-summaries/{PayoutUniqueReference}', /^operation$/]],
      ['a new optional request field', ['merchant', 'POST', '/v1/payouts', /^request body \(application\/json\) › Purpose$/]],
      ['a new optional query parameter', ['merchant', 'GET', '/v1/payouts', /^query parameter Reference$|^parameters/]],
      [
        'a new value in a closed request enumeration',
        ['platform', 'POST', '/api/v1/fees/calculate', /^request body \(application\/json\) › rail enum/],
      ],
    ])('%s is non-breaking', (_, expected) => {
      expect(changesAt(listed, expected).map((c) => c.kind)).toEqual(expect.arrayContaining(['non-breaking']));
      expect(changesAt(listed, expected).filter((c) => c.kind === 'breaking')).toEqual([]);
    });
  });

  describe('breaking changes (one run)', () => {
    let run: Awaited<ReturnType<typeof diff>>;
    let listed: Listed[];
    beforeAll(async () => {
      copyContract();
      schema('Payee.yaml', (s) => {
        delete s.properties.dateOfBirth;
        s.required = s.required.filter((r: string) => r !== 'dateOfBirth');
      });
      schema('Payment.yaml', (s) => {
        s.properties.memo = s.properties.description;
        delete s.properties.description;
        s.required = s.required.map((r: string) => (r === 'description' ? 'memo' : r));
      });
      schema('PayoutEvent.yaml', (s) => {
        delete s.properties.timestamp;
        s.required = s.required.filter((r: string) => r !== 'timestamp');
      });
      schema('PayoutCreateRequest.yaml', (s) => {
        s.properties.Purpose = { type: 'string', maxLength: 100, pattern: '^[^\\n]*$', description: 'Why the payout is made.' };
        s.required.push('Purpose');
        s.properties.Description.maxLength = 100;
      });
      schema('TransactionDirection.yaml', (s) => s.enum.push('INTERNAL'));
      schema('Payout.yaml', (s) => {
        s.properties.MerchantId = { type: 'string', maxLength: 20, pattern: '^[0-9]+$', description: 'The merchant.' };
        s.additionalProperties = false;
      });
      edit('merchant/openapi.yaml', (d) => {
        delete d.paths['/v1/payees/{id}/accounts/{account_id}'];
      });
      run = await diff(repo, 'HEAD', '--all');
      listed = parseListed(run.stdout);
    }, 120_000);

    it('exits 1 and counts the breaking changes of each group', () => {
      expect(run.stdout).toMatch(/^merchant: [1-9]\d* breaking/m);
      expect(run.stdout).toMatch(/^platform: [1-9]\d* breaking/m); // B shares the payee and payout schemas
      expect(run.stdout).toMatch(/^partner: [1-9]\d* breaking/m);
      expect(run.stdout).toMatch(/^banking: [1-9]\d* breaking/m); // D's noc.received carries the shared payment
      expect(run.stdout).toMatch(/\d+ breaking changes\.$/m);
      expect(run.code).toBe(1);
    });

    it.each<[string, Expected]>([
      ['a removed response field', ['merchant', 'GET', '/v1/payees/{id}', /^response 200 \(application\/json\) › dateOfBirth$/]],
      [
        'a renamed response field',
        ['partner', 'POST', '/finance/v1/payment_request', /^response 201 \(application\/json\) › description$/],
      ],
      ['a removed webhook payload field', ['merchant', 'WEBHOOK', 'payout.completed', /^payload \(application\/json\) › \S*timestamp$/]],
      ['a removed operation', ['merchant', 'GET', '/v1/payees/{id}/accounts/{account_id}', /^operation$/]],
      ['a new required request field', ['merchant', 'POST', '/v1/payouts', /^request body \(application\/json\) › required: Purpose$/]],
      ['a tighter request limit', ['merchant', 'POST', '/v1/payouts', /^request body \(application\/json\) › Description maxLength$/]],
      [
        'a new value in a closed response enumeration',
        ['partner', 'POST', '/finance/v1/partner/search_transactions', /^response 200 \(application\/json\) › data\[\]direction enum/],
      ],
      [
        'a changed type',
        ['merchant', 'GET', '/v1/payouts/{PayoutUniqueReference}', /^response 200 \(application\/json\) › MerchantId type$/],
      ],
      [
        'a closed response object',
        ['merchant', 'GET', '/v1/payouts/{PayoutUniqueReference}', /^response 200 \(application\/json\) › additionalProperties$/],
      ],
    ])('%s is breaking', (_, expected) => {
      expect(changesAt(listed, expected).map((c) => c.kind)).toContain('breaking');
    });
  });
});

/** One change as `--all` lists it: its API, kind, method, path and location. */
interface Listed {
  api: string;
  kind: string;
  method: string;
  path: string;
  location: string;
}
type Expected = [api: string, method: string, path: string, location: RegExp];

function parseListed(stdout: string): Listed[] {
  const out: Listed[] = [];
  let api = '';
  let kind = '';
  const lines = stdout.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const heading = /^([a-z]+): /.exec(line);
    if (heading) api = heading[1]!;
    const section = /^ {2}([a-z-]+):$/.exec(line);
    if (section) kind = section[1]!;
    const change = /^ {4}(\S+) +(\S.*)$/.exec(line);
    const at = /^ +at (.*)$/.exec(lines[i + 1] ?? '');
    if (change && at) out.push({ api, kind, method: change[1]!, path: change[2]!, location: at[1]! });
  }
  return out;
}

function changesAt(listed: Listed[], [api, method, path, location]: Expected): Listed[] {
  const found = listed.filter((c) => c.api === api && c.method === method && c.path === path && location.test(c.location));
  if (found.length === 0) {
    const near = listed.filter((c) => c.api === api && c.path === path).map((c) => `${c.kind} ${c.method} ${c.location}`);
    throw new Error(`no change of ${api} ${method} ${path} at ${location}; at that path: ${near.join('; ') || 'none'}`);
  }
  return found;
}
