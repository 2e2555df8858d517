// `npm run lint:contract`: Redocly (recommended-strict plus redocly.yaml's rules) over the hand-written documents, the
// problem-type rules (lint-problem-types.ts), then Spectral's OWASP API Security ruleset (.spectral.yaml) over fresh
// bundles of them. Any problem, even a warning, fails. Bundles go to node_modules/payout-lint/ so .spectral.yaml's override globs match them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleDocuments } from './bundle-documents.js';
import { problemTypeFindings } from './lint-problem-types.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function step(title: string, command: string, args: string[]): void {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed.`);
    process.exit(result.status ?? 1);
  }
}

const bundles = await bundleDocuments(root);
const groups = [...bundles.keys()];
step('Redocly lint (recommended-strict)', bin('redocly'), ['lint', '--format=stylish', ...groups]);
console.log('\n▶ Problem types (x-problem-types against the catalogue and each operation)');
const findings = problemTypeFindings(bundles, root);
if (findings.length > 0) {
  for (const finding of findings) console.error(`  ${finding}`);
  console.error(`\n✖ ${findings.length} problem-type finding${findings.length === 1 ? '' : 's'}.`);
  process.exit(1);
}
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
