// `npm run diff -- <git ref> [--all]`: the contract changes between the documents at that ref and the working
// tree, per API, classified by the compatibility policy (openapi/DECISIONS.md "Compatibility", applied by
// scripts/contract/breaking-changes.ts). Prints each API's counts and every breaking change; with --all, every other change
// too. Exit 0: no breaking change; 1: at least one; 2: usage or another error.
// The repository is the one holding the current directory; both sides are bundled the same way
// (scripts/contract/bundle-documents.ts), the ref's from a `git archive` of its openapi/ and redocly.yaml.
import { bundleDocuments, type Document } from './bundle-documents.js';
import { compareDocuments, type Change, type ChangeType } from './breaking-changes.js';
import { commitOf, contractAtRef, repositoryOf, UnknownRefError } from './contract-at-ref.js';

const usage = `Usage: npm run diff -- <git ref> [--all]
  Compares the API documents at <git ref> (a commit, branch or tag) with the working tree's openapi/ and
  lists the breaking changes (with --all, every change, by kind). Exit status: 0 none, 1 breaking changes
  found, 2 usage or other error.`;

const shown: ChangeType[] = ['breaking', 'non-breaking', 'annotation', 'deprecated', 'unclassified'];

function summary(counts: Record<ChangeType, number>): string {
  return shown
    .filter((t) => counts[t] > 0 || ['breaking', 'non-breaking', 'annotation'].includes(t))
    .map((t) => `${counts[t]} ${t}`)
    .join(', ');
}

function line(c: Change): string {
  return `    ${c.method.padEnd(7)} ${c.path}\n            at ${c.location}\n            ${c.description}`;
}

/** Every change of one kind, under a heading; nothing when there is none. */
function section(kind: ChangeType, changes: Change[]): string[] {
  const of = changes.filter((c) => c.type === kind);
  return of.length === 0 ? [] : [`  ${kind}:`, ...of.map(line)];
}

async function main(args: string[]): Promise<number> {
  const all = args.includes('--all');
  const refs = args.filter((a) => a !== '--' && a !== '--all');
  if (refs.length !== 1 || refs[0] === '-h' || refs[0] === '--help') {
    console.error(usage);
    return 2;
  }
  const ref = refs[0]!;
  const repo = await repositoryOf(process.cwd());
  const commit = await commitOf(repo, ref);
  const [before, after] = await Promise.all([contractAtRef(repo, commit), bundleDocuments(repo)]);

  console.log(`Contract changes from ${ref} (${commit.slice(0, 12)}) to the working tree of ${repo}:\n`);
  let breaking = 0;
  const names = [...new Set([...after.keys(), ...before.keys()])];
  for (const name of names) {
    const [was, now] = [before.get(name), after.get(name)] as [Document | undefined, Document | undefined];
    if (!was) {
      console.log(`${name}: new (absent at ${ref})`);
      continue;
    }
    if (!now) {
      // A whole API removed breaks every client of it.
      breaking += 1;
      console.log(`${name}: REMOVED (present at ${ref}, absent now) — breaking`);
      continue;
    }
    const { counts, changes } = compareDocuments(was, now);
    breaking += counts.breaking;
    console.log(`${name}: ${summary(counts)}`);
    const listed = all ? shown.flatMap((kind) => section(kind, changes)) : changes.filter((c) => c.type === 'breaking').map(line);
    for (const text of listed) console.log(text);
  }
  console.log(breaking > 0 ? `\n${breaking} breaking change${breaking === 1 ? '' : 's'}.` : '\nNo breaking changes.');
  return breaking > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    console.error(err instanceof UnknownRefError ? `${err.message}\n\n${usage}` : `npm run diff failed: ${err.message}`);
    process.exitCode = 2;
  },
);
