// One self-contained Redoc page per group: `redocly build-docs` over the group's reference document, with Redoc
// inlined (--inlineBundle; otherwise the page loads it from Redocly's CDN), telemetry off, and our template. The
// reference document is generated/<group>/openapi.json with, in one walk (transformDocument): each operation's
// problem types added to its description, its curl and TypeScript samples, and open enumerations shown as
// enumerations. It is published beside the page as <group>.openapi.json, which the page links for download.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { codeSamplesTransform } from './code-samples.js';
import { bundlePath, repoRoot, transformDocument, type Node } from './contract.js';
import { openEnumsTransform } from './open-enums.js';
import { problemTypesTransform } from './problem-types.js';
import type { Group } from '../../generated/index.js';

const run = promisify(execFile);
const template = `${repoRoot}docs/reference/template.hbs`;

// Redoc 3 shows an "API docs by Redocly" badge whose <img> loads from cdn.redoc.ly whatever the options say.
// The page keeps the attribution but draws it from an inline SVG, so opening the page requests nothing remote.
const redocLogoUrls = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];

async function attributionDataUri(): Promise<string> {
  const svg = await readFile(`${repoRoot}docs/reference/redocly-attribution.svg`, 'utf8');
  return `data:image/svg+xml;base64,${Buffer.from(svg.trim()).toString('base64')}`;
}

/**
 * Redoc's options (one JSON object: Redocly reads `--openapi` whole): no telemetry; the download button and link,
 * to the published document (a path relative to the page); and the sample languages, in this order: Redoc shows
 * only the `x-codeSamples` of the languages listed, and the request body as "Payload".
 */
const redocOptions = (download: string) => ({
  disableTelemetry: true,
  downloadUrls: [{ title: 'OpenAPI document', url: download }],
  codeSamples: { languages: [{ lang: 'curl' }, { lang: 'TypeScript' }, { lang: 'Payload' }] },
});

/**
 * The group's document exactly as its reference page shows it (and as published for download). The bundle's
 * `x-generated` note (which command wrote it, from which files) speaks to this repository's maintainers, not to
 * an integrator reading the download, so it stays out.
 */
export async function referenceDocument(group: Group): Promise<Node> {
  const { 'x-generated': _maintainersNote, ...bundle } = JSON.parse(await readFile(bundlePath(group), 'utf8')) as Node;
  return transformDocument(bundle, [problemTypesTransform, codeSamplesTransform(group), openEnumsTransform]);
}

/** The reference document's file name beside the page: `<group>.openapi.json`. */
export const referenceDocumentFile = (group: Group) => `${group}.openapi.json`;

/**
 * Builds docs/dist/<group>.html (or `outFile`) and its document (`<group>.openapi.json` in the same folder),
 * returning the page's path. Throws with Redocly's output on failure.
 */
export async function buildReferencePage(group: Group, title: string, outFile: string): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'payout-reference-'));
  const source = join(work, `${group}.json`);
  const published = join(dirname(outFile), referenceDocumentFile(group));
  const document = `${JSON.stringify(await referenceDocument(group), null, 2)}\n`;
  await writeFile(source, document);
  await writeFile(published, document);
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
    '--openapi',
    JSON.stringify(redocOptions(basename(published))),
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
    if (!html.includes(url)) throw new Error(`Redoc no longer references ${url}; update scripts/docs/reference.ts`);
    html = html.split(url).join(logo);
  }
  await writeFile(outFile, html);
  return outFile;
}
