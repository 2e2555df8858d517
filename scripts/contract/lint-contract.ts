// `npm run lint:contract`: Redocly (recommended-strict plus redocly.yaml's rules) over the hand-written documents, the
// problem-type rules (lint-problem-types.ts), the examples over the bundles (lint-examples.ts), then Spectral's OWASP
// API Security ruleset (.spectral.yaml) over fresh bundles of them. Any problem, even a warning, fails. Bundles go to node_modules/payout-lint/ so .spectral.yaml's override globs match them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleDocuments } from './bundle-documents.js';
import { exampleFindings, exampleFindingsHint } from './lint-examples.js';
import { problemTypeFindings } from './lint-problem-types.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

// Redocly ends a failed lint by suggesting an ignore file; this project keeps none (every finding is fixed where it
// is), so that line is left out and the fix is named instead.
const ignoreFileAdvice = /^.*--generate-ignore-file.*\n?/m;

function step(title: string, command: string, args: string[], hint?: string): void {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(result.stdout.replace(ignoreFileAdvice, ''));
  process.stderr.write(result.stderr.replace(ignoreFileAdvice, ''));
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed.${hint ? ` ${hint}` : ''}`);
    process.exit(result.status ?? 1);
  }
}

function report(findings: string[], what: string, hint?: string): void {
  if (findings.length === 0) return;
  for (const finding of findings) console.error(`  ${finding}`);
  console.error(`\n✖ ${findings.length} ${what}${findings.length === 1 ? '' : 's'}.${hint ? ` ${hint}` : ''}`);
  process.exit(1);
}

const bundles = await bundleDocuments(root);
const groups = [...bundles.keys()];
step('Redocly lint (recommended-strict)', bin('redocly'), ['lint', '--format=stylish', ...groups], 'Fix each in the file it names.');
console.log('\n▶ Problem types (x-problem-types against the catalogue and each operation)');
report(problemTypeFindings(bundles, root), 'problem-type finding');
console.log('\n▶ Examples (every request and response example against its schema, as bundled)');
report(await exampleFindings(bundles), 'example finding', exampleFindingsHint);
const out = join(root, 'node_modules/payout-lint');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const [group, doc] of bundles) writeFileSync(join(out, `${group}.json`), JSON.stringify(doc));
step('Spectral (OWASP API Security Top 10, 2023)', bin('spectral'), [
  'lint',
  '--ruleset',
  '.spectral.yaml',
  '--fail-severity=warn',
  ...groups.map((g) => `node_modules/payout-lint/${g}.json`),
]);
console.log('\n✔ The contract lints clean.');
