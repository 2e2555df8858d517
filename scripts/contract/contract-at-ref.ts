// The contract as it was at a git ref: openapi/ and redocly.yaml of that commit, extracted into a temp folder
// with `git archive` (the working tree and the index are never touched), then bundled.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundleDocuments, type Document } from './bundle-documents.js';

const run = promisify(execFile);
const git = (repo: string, args: string[]) => run('git', ['-C', repo, ...args], { maxBuffer: 64 * 1024 * 1024 });

export class UnknownRefError extends Error {}

/** The commit a ref names, or UnknownRefError. */
export async function commitOf(repo: string, ref: string): Promise<string> {
  try {
    return (await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).stdout.trim();
  } catch {
    throw new UnknownRefError(`"${ref}" names no commit of the repository at ${repo}.`);
  }
}

/** The top folder of the git repository that holds `dir`. */
export async function repositoryOf(dir: string): Promise<string> {
  return (await git(dir, ['rev-parse', '--show-toplevel'])).stdout.trim();
}

async function exists(repo: string, commit: string, path: string): Promise<boolean> {
  return git(repo, ['cat-file', '-e', `${commit}:${path}`]).then(
    () => true,
    () => false,
  );
}

/** Every API document of the commit, bundled, by name (none when the commit has no openapi/). */
export async function contractAtRef(repo: string, commit: string): Promise<Map<string, Document>> {
  const paths = [];
  for (const path of ['openapi', 'redocly.yaml']) if (await exists(repo, commit, path)) paths.push(path);
  if (paths.length === 0) return new Map();
  const tree = await mkdtemp(join(tmpdir(), 'payout-contract-at-ref-'));
  try {
    const archive = join(tree, 'contract.tar');
    await git(repo, ['archive', '--format=tar', '-o', archive, commit, '--', ...paths]);
    await run('tar', ['-xf', archive, '-C', tree]);
    return await bundleDocuments(tree);
  } finally {
    await rm(tree, { recursive: true, force: true });
  }
}
