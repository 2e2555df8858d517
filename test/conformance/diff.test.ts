// `npm run diff -- <git ref>` (scripts/diff.ts), run as a process: against HEAD of this repository it finds
// no breaking change; in a temporary repository (in the temp folder, holding this repository's HEAD
// documents) it reports a group the ref lacks as new, a compatible change as non-breaking with exit 0, and
// a required request field, a removed response field and a removed webhook field as breaking with exit 1.
// This repository's history, index and working tree are only read.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const script = join(root, 'scripts/diff.ts');

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
  /** This repository's HEAD documents, written into the temp repository's working tree. */
  const extractHead = async () => {
    const archive = join(repo, '..', `${repo.split('/').pop()}.tar`);
    await exec('git', ['-C', root, 'archive', '--format=tar', '-o', archive, 'HEAD', '--', 'openapi', 'redocly.yaml']);
    await exec('tar', ['-xf', archive, '-C', repo]);
    rmSync(archive);
  };
  const edit = (file: string, change: (schema: any) => void) => {
    const path = join(repo, 'openapi/shared/schemas', file);
    const schema = parse(readFileSync(path, 'utf8'));
    change(schema);
    writeFileSync(path, stringify(schema));
  };

  beforeAll(async () => {
    await git('init', '-q');
    await extractHead();
    // The ref's contract lacks the counterparty group.
    rmSync(join(repo, 'openapi/counterparty'), { recursive: true });
    const config = parseDocument(readFileSync(join(repo, 'redocly.yaml'), 'utf8'));
    config.deleteIn(['apis', 'counterparty']);
    writeFileSync(join(repo, 'redocly.yaml'), config.toString());
    await git('add', '-A');
    await git('commit', '-q', '-m', 'before');
    await extractHead();
  }, 60_000);
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('reports a group absent at the ref as new and an optional request field as non-breaking (exit 0)', async () => {
    edit('PayoutCreateRequest.yaml', (s) => {
      s.properties.Purpose = { type: 'string', maxLength: 100, description: 'Why the payout is made.' };
    });
    const { code, stdout } = await diff(repo, 'HEAD');
    expect(stdout).toMatch(/^counterparty: new \(absent at HEAD\)$/m);
    expect(stdout).toMatch(/^merchant: 0 breaking, [1-9]\d* non-breaking/m);
    expect(stdout).toMatch(/^platform: 0 breaking, [1-9]\d* non-breaking/m);
    expect(stdout).toContain('No breaking changes.');
    expect(code).toBe(0);
  });

  it('reports a required request field, a removed response field and a removed webhook field as breaking (exit 1)', async () => {
    edit('PayoutCreateRequest.yaml', (s) => {
      s.properties.Purpose = { type: 'string', maxLength: 100, description: 'Why the payout is made.' };
      s.required.push('Purpose');
    });
    edit('Payee.yaml', (s) => {
      delete s.properties.dateOfBirth;
      s.required = s.required.filter((r: string) => r !== 'dateOfBirth');
    });
    edit('PayoutEvent.yaml', (s) => {
      delete s.properties.timestamp;
      s.required = s.required.filter((r: string) => r !== 'timestamp');
    });
    const { code, stdout } = await diff(repo, 'HEAD');
    expect(stdout).toMatch(/^merchant: [1-9]\d* breaking/m);
    expect(stdout).toMatch(/POST +\/v1\/payouts\n +at request body \(application\/json\) › required: Purpose/);
    expect(stdout).toMatch(/GET +\/v1\/payees\/\{id\}\n +at response 200 \(application\/json\) › dateOfBirth/);
    expect(stdout).toMatch(/WEBHOOK +payout\.completed\n +at payload \(application\/json\) › \S*timestamp\n/);
    expect(stdout).toMatch(/^platform: [1-9]\d* breaking/m); // B shares the payee and payout schemas
    expect(stdout).toMatch(/^banking: 0 breaking/m);
    expect(stdout).toMatch(/\d+ breaking changes\.$/m);
    expect(code).toBe(1);
  });
});
