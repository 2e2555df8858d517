// The docs' one Markdown renderer (markdown-it, CommonMark with tables): the guides (docs/guides/*.md) and the
// Markdown snippets the generated sections carry. Headings get ids from their text, so a page's table of contents
// and links between guides can point at them. Raw HTML is allowed because the guides' facts (tables, diagrams)
// are HTML the builder generates from the contract; the Markdown itself is ours, never a user's.
import { readFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const md = new MarkdownIt({ html: true, linkify: false, typographer: false });

// Every heading gets an id made from its text (`## Catching up` → `id="catching-up"`), unless the text ends with
// an explicit `{#id}`, which is kept and removed from the text.
md.core.ruler.push('heading_ids', (state) => {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'heading_open') continue;
    const inlineToken = tokens[i + 1]!;
    const explicit = /\s*\{#([a-z0-9-]+)\}\s*$/.exec(inlineToken.content);
    if (explicit) {
      inlineToken.content = inlineToken.content.slice(0, explicit.index);
      const last = inlineToken.children?.at(-1);
      if (last?.type === 'text') last.content = last.content.replace(/\s*\{#[a-z0-9-]+\}\s*$/, '');
    }
    tokens[i]!.attrSet('id', explicit ? explicit[1]! : slug(inlineToken.content));
  }
});

export interface Heading {
  level: number;
  text: string;
  id: string;
}

// The contract's texts are rendered without raw HTML: `problems/<kind>` in a description is text, not a tag.
const mdText = new MarkdownIt({ html: false });

/** Inline Markdown (code spans, links, emphasis) to HTML, for one-line texts of the contract. */
export const inline = (text: string): string => mdText.renderInline(text);

/** A Markdown document to HTML, with its headings (for a page's table of contents). */
export function renderMarkdown(markdown: string): { html: string; headings: Heading[] } {
  const env = {};
  const tokens = md.parse(markdown, env);
  const headings: Heading[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'heading_open')
      headings.push({ level: Number(t.tag.slice(1)), text: tokens[i + 1]!.content, id: String(t.attrGet('id') ?? '') });
  }
  return { html: md.renderer.render(tokens, md.options, env), headings };
}

/** A Markdown file of `docs/` with its HTML comments (notes to its writers) removed. */
export function readMarkdown(path: string): string {
  return readFileSync(path, 'utf8').replace(/<!--[\s\S]*?-->\n?/g, '');
}

/** The `## name` sections of a Markdown file, each section's text (trimmed) by its name. */
export function sectionsOf(markdown: string): Map<string, string> {
  const parts = markdown.split(/^## +(.+?) *$/m);
  const out = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 2) out.set(parts[i]!, parts[i + 1]!.trim());
  return out;
}
