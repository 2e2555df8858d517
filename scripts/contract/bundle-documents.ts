// Bundles every API document of a source tree (a checkout, or a tree extracted from a git ref) with Redocly,
// as `npm run generate` does: the APIs are those its redocly.yaml names, bundled with that configuration.
// A tree without a redocly.yaml (an older ref) has its APIs found at openapi/<name>/openapi.yaml. Each bundle then
// gets every operation's own 404 example (not-found-examples.ts) and its examples' omitted properties filled in
// from their schemas' examples (filled-examples.ts), so generate and lint see the same document.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { fillExamples } from './filled-examples.js';
import { withNotFoundExamples } from './not-found-examples.js';

const run = promisify(execFile);
const redocly = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));

export type { Node as Document } from './document.js';
import type { Node as Document } from './document.js';

/** The APIs of a tree: name → the argument `redocly bundle` takes for it (the name itself, or a root path). */
async function apisOf(tree: string): Promise<Map<string, string>> {
  const config = join(tree, 'redocly.yaml');
  if (existsSync(config)) {
    const apis = (parse(await readFile(config, 'utf8')) as { apis?: Record<string, unknown> } | null)?.apis ?? {};
    return new Map(Object.keys(apis).map((name) => [name, name]));
  }
  const folder = join(tree, 'openapi');
  if (!existsSync(folder)) return new Map();
  const names = (await readdir(folder, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && existsSync(join(folder, d.name, 'openapi.yaml')))
    .map((d) => d.name);
  return new Map(names.map((name) => [name, `openapi/${name}/openapi.yaml`]));
}

/** Every API of the tree, bundled (internal $refs only), by name. */
export async function bundleDocuments(tree: string): Promise<Map<string, Document>> {
  const apis = await apisOf(tree);
  const out = await mkdtemp(join(tmpdir(), 'payout-bundle-'));
  try {
    const bundled = await Promise.all(
      [...apis].map(async ([name, target]) => {
        const file = join(out, `${name}.json`);
        try {
          await run(redocly, ['bundle', target, '-o', file], {
            cwd: tree,
            env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          });
        } catch (err) {
          const e = err as { stderr?: string; message: string };
          throw new Error(`redocly could not bundle ${name} in ${tree}:\n${e.stderr ?? e.message}`);
        }
        const doc = withNotFoundExamples(JSON.parse(await readFile(file, 'utf8')) as Document);
        fillExamples(doc);
        return [name, doc] as const;
      }),
    );
    return new Map(bundled);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
