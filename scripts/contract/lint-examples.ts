// The examples' check, over the bundles as generate writes them (their omitted properties filled in from their
// schemas' examples: filled-examples.ts), so an example is judged complete or not as the reference, the mocks and the
// validators see it. Redocly's own rule (no-invalid-media-type-examples) does the judging, alone, through
// lint-examples.redocly.yaml; redocly.yaml turns it off for the sources, where an example may leave such a property
// out. `npm run generate` and `npm run lint:contract` both run it, so generate reports what check would.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Node } from './document.js';

const run = promisify(execFile);
const redocly = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));
const config = fileURLToPath(new URL('./lint-examples.redocly.yaml', import.meta.url));

interface RedoclyProblem {
  message: string;
  location: { pointer: string }[];
}

/** Each example that does not fit its schema, as `group #/pointer: message`, with what to do about it. */
export async function exampleFindings(bundles: Map<string, Node>): Promise<string[]> {
  const work = await mkdtemp(join(tmpdir(), 'payout-examples-'));
  try {
    const files = await Promise.all(
      [...bundles].map(async ([group, doc]) => {
        const file = join(work, `${group}.json`);
        await writeFile(file, JSON.stringify(doc));
        return [group, file] as const;
      }),
    );
    const reports = await Promise.all(
      files.map(async ([group, file]) => {
        // Redocly exits 1 when it finds a problem; its JSON report is on stdout either way.
        const stdout = await run(redocly, ['lint', '--config', config, '--format=json', file], {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 64 * 1024 * 1024,
        }).then(
          (r) => r.stdout,
          (err: { stdout?: string; stderr?: string; message: string }) => {
            if (!err.stdout) throw new Error(`redocly could not lint the examples of ${group}:\n${err.stderr ?? err.message}`);
            return err.stdout;
          },
        );
        return (JSON.parse(stdout) as { problems: RedoclyProblem[] }).problems.map(
          (p) => `${group} ${p.location[0]?.pointer ?? ''}: ${p.message}`,
        );
      }),
    );
    const findings = reports.flat();
    return findings;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** What a maintainer reads after the findings: where to fix them (never an ignore file). */
export const exampleFindingsHint =
  "Give the example the value, or give the property's schema an `example` (the bundle then fills every example that " +
  'leaves it out: scripts/contract/filled-examples.ts). The pointer is into generated/<group>/openapi.json; its path ' +
  'names the operation and example to edit in openapi/.';
