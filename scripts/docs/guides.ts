// The guide pages of docs/dist/: each docs/guides/<name>.md rendered with markdown-it into docs/guides/page.html,
// its facts filled from the contract and the service (scripts/docs/facts.ts), with a sidebar listing every guide
// (the reader's own page marked `aria-current="page"`, with its sections beneath it) and the reference pages.
import { readFile } from 'node:fs/promises';
import { groups, type Group } from '../../generated/index.js';
import { repoRoot, type Node } from './contract.js';
import { fillBlocks, fillInline, guideFacts } from './facts.js';
import { escapeHtml, inline, renderMarkdown } from './markdown.js';

/** The guides in reading order; `index` is the overview, published as index.html. */
export const guideNames = [
  'index',
  'quick-start',
  'web-console',
  'authentication',
  'payouts',
  'webhooks',
  'pagination',
  'errors',
  'limits',
  'sandbox',
  'compatibility',
  'design-decisions',
] as const;
export type GuideName = (typeof guideNames)[number];

export const guideFile = (name: GuideName) => `${name}.html`;

interface Guide {
  name: GuideName;
  title: string;
  html: string;
  sections: { id: string; text: string }[];
}

const stripTags = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function renderGuide(name: GuideName, facts: Awaited<ReturnType<typeof guideFacts>>): Promise<Guide> {
  const source = `docs/guides/${name}.md`;
  const markdown = await readFile(`${repoRoot}${source}`, 'utf8');
  const title = /^# (.+)$/m.exec(markdown)?.[1];
  if (!title) throw new Error(`${source} has no # title`);
  const { html, headings } = renderMarkdown(fillInline(markdown, facts, source));
  // The sidebar lists the page's sections: its Markdown's own h2s (the generated blocks hold tables and code, no sections).
  const sections = headings.filter((h) => h.level === 2).map((h) => ({ id: h.id, text: stripTags(inline(h.text)) }));
  return { name, title: stripTags(renderMarkdown(title).html).trim(), html: fillBlocks(html, facts, source), sections };
}

function sidebar(guides: Guide[], current: Guide): string {
  const items = guides.map((g) => {
    const here = g === current;
    const sections =
      here && g.sections.length > 0
        ? `<ul class="on-this-page" aria-label="On this page">${g.sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.text)}</a></li>`).join('')}</ul>`
        : '';
    // The overview's own title is the API's name; in the list it is the overview.
    const label = g.name === 'index' ? 'Overview' : g.title;
    return `<li><a href="${guideFile(g.name)}"${here ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>${sections}</li>`;
  });
  return `<ul class="guides">${items.join('')}</ul>`;
}

const referenceLinks = (bundles: Record<Group, Node>) =>
  `<ul class="reference">${groups.map((g) => `<li><a href="${g}.html">${escapeHtml(bundles[g].info.title)}</a></li>`).join('')}</ul>`;

/** Fills each {{slot}} of the page template; a slot the builder does not fill fails the build. */
function fillPage(template: string, slots: Record<string, string>): string {
  return template.replace(/\{\{([a-z-]+)\}\}/g, (_, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new Error(`docs/guides/page.html has a slot {{${name}}} the builder does not fill`);
    return value;
  });
}

/** Every guide page: its file name in docs/dist/ and its HTML. */
export async function renderGuides(bundles: Record<Group, Node>, builtAt: Date): Promise<{ file: string; html: string }[]> {
  const [template, css, facts] = await Promise.all([
    readFile(`${repoRoot}docs/guides/page.html`, 'utf8'),
    readFile(`${repoRoot}docs/guides/style.css`, 'utf8'),
    guideFacts(bundles, builtAt),
  ]);
  const guides = await Promise.all(guideNames.map((name) => renderGuide(name, facts)));
  return guides.map((g, i) => {
    const previous = guides[i - 1];
    const next = guides[i + 1];
    const pageNav = `<nav class="page-nav" aria-label="Previous and next guide"><span>${previous ? `<a href="${guideFile(previous.name)}" rel="prev">← ${escapeHtml(previous.title)}</a>` : ''}</span><span>${next ? `<a href="${guideFile(next.name)}" rel="next">${escapeHtml(next.title)} →</a>` : ''}</span></nav>`;
    const html = fillPage(template, {
      title: escapeHtml(g.name === 'index' ? 'Payout Service API' : `${g.title} · Payout Service API`),
      css,
      guides: sidebar(guides, g),
      reference: referenceLinks(bundles),
      content: g.html,
      'page-nav': pageNav,
      footer: facts.block.footer!,
    });
    return { file: guideFile(g.name), html };
  });
}
