// What the published docs say, read from the built pages (no browser): every page speaks to integrators (never
// "seed", never the old "six" event types), each guide marks itself in the sidebar, and the facts the guides
// state are the contract's, checked here against generated/*/openapi.json and the service's tables directly (not
// through scripts/docs/facts.ts, which could be wrong the same way as the pages).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { problemTypeBase, problemTypes } from '../../generated/problem-types.js';
import { buildDocs, type BuiltDocs } from '../../scripts/docs/build.js';
import { guideFile, guideNames } from '../../scripts/docs/guides.js';
import { bundles, operationsOf, resolve } from '../support/contract.js';

let built: BuiltDocs;
let work: string;
const html = new Map<string, string>();

/** The text a reader can see or a reference page renders: the page without its scripts, and Redoc's definition. */
function publishedText(page: string): string {
  const source = html.get(page)!;
  const definition = /const __redoc_definition = (\{[\s\S]*?\});\n/.exec(source)?.[1] ?? '';
  const withoutCode = source.replace(/<script[\s\S]*?<\/script>/g, ' ').replace(/<style[\s\S]*?<\/style>/g, ' ');
  return `${withoutCode}\n${definition}`;
}

/** A guide's visible text, tags removed and entities decoded, spaces collapsed. */
function guideText(page: string): string {
  return publishedText(page)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'docs-text-'));
  built = await buildDocs(join(work, 'dist'));
  for (const page of built.pages) html.set(page, await readFile(`${built.outDir}${page}`, 'utf8'));
}, 180_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the published docs', () => {
  it('publishes every guide, then one reference page per group', () => {
    expect(built.pages).toEqual([...guideNames.map(guideFile), ...groups.map((g) => `${g}.html`)]);
  });

  it('never says "seed" nor counts the event types as six, on any page', () => {
    const found: string[] = [];
    for (const page of built.pages) {
      const text = publishedText(page);
      for (const m of text.matchAll(/.{0,60}\bseed.{0,60}/gi)) found.push(`${page}: …${m[0]}…`);
      for (const m of text.matchAll(/.{0,60}\bsix\b.{0,60}/gi)) found.push(`${page}: …${m[0]}…`);
    }
    expect(found).toEqual([]);
  });

  it("keeps the repository's own notes out of every downloadable document and reference page", async () => {
    expect(built.documents).toEqual(groups.map((g) => `${g}.openapi.json`));
    for (const file of built.documents) {
      const document = await readFile(join(built.outDir, file), 'utf8');
      expect(Object.keys(JSON.parse(document) as object), file).not.toContain('x-generated');
    }
    for (const page of built.pages) expect(publishedText(page), page).not.toContain('x-generated');
  });

  it.each(guideNames)('marks the %s guide, and only it, as the current page in its sidebar', (name) => {
    const page = html.get(guideFile(name))!;
    const current = [...page.matchAll(/<a href="([^"]+)" aria-current="page">/g)].map((m) => m[1]);
    expect(current).toEqual([guideFile(name)]);
    // Every guide and every reference page is linked from the sidebar.
    const nav = /<nav class="toc"[\s\S]*?<\/nav>/.exec(page)![0];
    for (const file of [...guideNames.map(guideFile), ...groups.map((g) => `${g}.html`)]) expect(nav).toContain(`href="${file}"`);
    // No placeholder was left unfilled.
    expect(page).not.toMatch(/\{\{[a-z-]+\}\}/);
  });

  it('links only to pages and anchors that exist', () => {
    const ids = new Map(built.pages.map((p) => [p, new Set([...html.get(p)!.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))]));
    const broken: string[] = [];
    for (const name of guideNames) {
      const page = guideFile(name);
      for (const [, href] of html.get(page)!.matchAll(/<a href="([^"]+)"/g)) {
        if (/^(https?:|mailto:)/.test(href!) || href!.includes('#/')) continue; // other sites; Redoc's own routes
        const [file, anchor] = href!.split('#') as [string, string | undefined];
        const target = file === '' ? page : file;
        if (target.endsWith('.sh')) continue;
        if (built.images.includes(target)) continue; // a console screenshot the build copied (its picture on the page)
        if (!ids.has(target)) broken.push(`${page}: ${href}`);
        else if (anchor && !target.match(/^(merchant|platform|partner|banking|counterparty)\.html$/) && !ids.get(target)!.has(anchor))
          broken.push(`${page}: ${href}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("states the contract's and the service's facts", async () => {
    const merchant = bundles.merchant;
    const selectable: string[] = merchant.components.schemas.WebhookEventType.enum;
    const webhooks = guideText('webhooks.html');
    expect(webhooks).toContain(`receives all ${selectable.length} event types`);
    for (const type of selectable) expect(webhooks).toContain(type);
    const listWebhooks = operationsOf('merchant').find((o) => o.op.operationId === 'listWebhooks')!;
    const maxRegistrations = resolve(merchant, listWebhooks.op.responses['200']).content['application/json'].schema.maxItems;
    expect(webhooks).toContain(`at most ${maxRegistrations} registrations`);

    const listPayouts = operationsOf('merchant').find((o) => o.op.operationId === 'listPayouts')!;
    const pageSize = resolve(
      merchant,
      listPayouts.op.parameters.map((p: unknown) => resolve(merchant, p)).find((p: { name: string }) => p.name === 'PageSize').schema,
    );
    expect(guideText('pagination.html')).toContain(
      `PageSize is ${pageSize.minimum} to ${pageSize.maximum} (${pageSize.default} by default)`,
    );

    const errors = guideText('errors.html');
    expect(errors).toContain(`The catalogue has ${Object.keys(problemTypes).length} kinds`);
    for (const kind of Object.keys(problemTypes)) expect(errors).toContain(problemTypeBase + kind);

    const expiresIn = merchant.components.schemas.TokenResponse.properties.expires_in.example;
    expect(guideText('authentication.html')).toContain(`A token lives ${expiresIn} seconds`);

    const sandbox = guideText('sandbox.html');
    const accounts = JSON.parse(
      await readFile(new URL('../../server/domain/rails/sandbox-test-accounts.json', import.meta.url), 'utf8'),
    ) as {
      outcomes: { endsWith: string; reason: string }[];
      examples: Record<string, string>;
    };
    for (const number of Object.values(accounts.examples)) expect(sandbox).toContain(number);
    for (const o of accounts.outcomes) expect(sandbox).toContain(`…${o.endsWith}`);

    expect(guideText('index.html')).toContain(`split into ${groups.length} groups`);
    for (const g of groups) expect(guideText('index.html')).toContain(String(bundles[g].info.title));
  });
});
