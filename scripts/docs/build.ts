// `buildDocs()`: the published docs in docs/dist/ (served by the server at /docs): one Redoc reference page
// per group (with its document, `<group>.openapi.json`) and the guide pages (scripts/docs/guides.ts), each checked
// to open without loading anything from another host, and the quick-start scripts the quick-start guide shows.
import { copyFile, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadBundles, repoRoot } from './contract.js';
import { renderGuides } from './guides.js';
import { quickStartScripts } from './quickstart.js';
import { consoleShots, screenshotsDir } from './console-pages.js';
import { remoteReferences } from './offline.js';
import { buildReferencePage, referenceDocumentFile } from './reference.js';
import { groups } from '../../generated/index.js';

export const docsDist = `${repoRoot}docs/dist/`;

export interface BuiltDocs {
  outDir: string;
  /** Page file names: the guides in reading order (`index.html` first), then `<group>.html` in groups order. */
  pages: string[];
  /** The quick-start scripts, copied byte for byte from docs/quickstarts/ (the quick-start guide shows them). */
  scripts: string[];
  /** Each group's document as its reference page shows it, `<group>.openapi.json` (the pages link them). */
  documents: string[];
  /** The console's screenshots the pages show and link, `console/<name>.png` (console-facts.ts). */
  images: string[];
}

// Work directories live in node_modules/.cache (ignored by git, on the repository's file system, so the final
// rename is atomic); a build killed half-way leaves nothing in the working tree.
const workDir = (kind: string) => `${repoRoot}node_modules/.cache/payout-docs/${kind}-${process.pid}-${Date.now()}`;

/** Replaces `target` by `staging` in two renames (a copy when they are on different file systems). */
async function swapIn(staging: string, target: string): Promise<void> {
  const previous = workDir('previous');
  await rename(target, previous).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EXDEV') return rm(target, { recursive: true, force: true });
    if (err.code !== 'ENOENT') throw err;
  });
  await rename(staging, target).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    await cp(staging, target, { recursive: true });
  });
  await rm(previous, { recursive: true, force: true });
}

/**
 * Builds into a work directory and swaps it in only when every page is built and checked, so a server (or a
 * test) reading `outDir` meanwhile never sees a half-built or deleted page.
 */
export async function buildDocs(outDir = docsDist): Promise<BuiltDocs> {
  const target = outDir.replace(/\/?$/, '/');
  const staging = `${workDir('building')}/`;
  const bundles = loadBundles();
  await mkdir(staging, { recursive: true });
  try {
    await Promise.all(
      groups.map((g) => buildReferencePage(g, `${bundles[g].info.title} reference · Payout Service`, `${staging}${g}.html`)),
    );
    const guides = await renderGuides(bundles, new Date());
    await Promise.all(guides.map((g) => writeFile(`${staging}${g.file}`, g.html)));
    await Promise.all(quickStartScripts.map((q) => copyFile(`${repoRoot}${q.source}`, `${staging}${q.file}`)));
    // The console's screenshots the pages show (console-facts.ts).
    const images = consoleShots.map((shot) => `console/${shot.name}.png`);
    await mkdir(`${staging}console`);
    await Promise.all(images.map((image) => copyFile(`${screenshotsDir}${image.slice('console/'.length)}`, `${staging}${image}`)));

    const pages = [...guides.map((g) => g.file), ...groups.map((g) => `${g}.html`)];
    const problems: string[] = [];
    for (const page of pages) {
      for (const found of remoteReferences(await readFile(`${staging}${page}`, 'utf8'))) problems.push(`${page}: ${found}`);
    }
    if (problems.length > 0) throw new Error(`The docs would load remote resources:\n${problems.join('\n')}`);

    await mkdir(dirname(target.slice(0, -1)), { recursive: true });
    await swapIn(staging.slice(0, -1), target.slice(0, -1));
    return {
      outDir: target,
      pages,
      scripts: quickStartScripts.map((q) => q.file),
      documents: groups.map(referenceDocumentFile),
      images,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
