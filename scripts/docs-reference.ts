// One self-contained Redoc page per group: `redocly build-docs` over generated/<group>/openapi.json, each operation's
// problem types added to its description, with Redoc inlined (--inlineBundle; otherwise the page loads it from
// Redocly's CDN), telemetry off, and our template.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundlePath, repoRoot } from './docs-contract.js';
import { withProblemTypes } from './docs-problem-types.js';
import type { Group } from '../generated/index.js';

const run = promisify(execFile);
const template = `${repoRoot}docs/reference/template.hbs`;

// Redoc 3 shows an "API docs by Redocly" badge whose <img> loads from cdn.redoc.ly whatever the options say.
// The page keeps the attribution but draws it from an inline SVG, so opening the page requests nothing remote.
const redocLogoUrls = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];

async function attributionDataUri(): Promise<string> {
  const svg = await readFile(`${repoRoot}docs/reference/redocly-attribution.svg`, 'utf8');
  return `data:image/svg+xml;base64,${Buffer.from(svg.trim()).toString('base64')}`;
}

/** Builds docs/dist/<group>.html (or `outFile`), returning its path. Throws with Redocly's output on failure. */
export async function buildReferencePage(group: Group, title: string, outFile: string): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'payout-reference-'));
  const source = join(work, `${group}.json`);
  await writeFile(source, JSON.stringify(withProblemTypes(JSON.parse(await readFile(bundlePath(group), 'utf8')))));
  const args = [
    'build-docs',
    source,
    '--output',
    outFile,
    '--inlineBundle',
    '--template',
    template,
    '--title',
    title,
    '--openapi.disableTelemetry',
    '--lint-config',
    'off',
  ];
  try {
    await run(`${repoRoot}node_modules/.bin/redocly`, args, {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`redocly build-docs failed for ${group}:\n${e.stderr || e.stdout || e.message}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  let html = await readFile(outFile, 'utf8');
  const logo = await attributionDataUri();
  for (const url of redocLogoUrls) {
    // A Redoc update that renames the badge must fail the build here, not quietly load a remote image.
    if (!html.includes(url)) throw new Error(`Redoc no longer references ${url}; update scripts/docs-reference.ts`);
    html = html.split(url).join(logo);
  }
  await writeFile(outFile, html);
  return outFile;
}
