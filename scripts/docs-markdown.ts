// A small Markdown-to-HTML converter for the hand-written Markdown the docs publish (openapi/DECISIONS.md):
// headings, paragraphs, bullet and numbered lists (with continuation lines), fenced code, tables, and inline
// code spans, bold, emphasis and links. Everything else is escaped text, never raw HTML.

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Inline Markdown: code spans first (their content stays literal), then links, bold and emphasis. */
export function inline(text: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, href: string) => {
          // Links into the repository are not published with the docs: keep their text only.
          return /^(https?:|#|mailto:)/.test(href) ? `<a href="${href}">${label}</a>` : label;
        })
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:]|$)/g, '$1<em>$2</em>');
    })
    .join('');
}

const tableCells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

export interface Heading {
  level: number;
  text: string;
  id: string;
}

/** Converts Markdown to HTML; headings get ids (prefixed with idPrefix) and are returned for a table of contents. */
export function markdownToHtml(
  markdown: string,
  options: { idPrefix?: string; shiftHeadings?: number } = {},
): { html: string; headings: Heading[] } {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  const headings: Heading[] = [];
  let i = 0;
  const at = (n: number) => lines[n] ?? '';
  const isBlockStart = (line: string) => /^(#{1,6}\s|```|\s*[-*]\s|\s*\d+\.\s|\|)/.test(line);

  while (i < lines.length) {
    const line = at(i);
    if (line.trim() === '') {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + (options.shiftHeadings ?? 0));
      const text = heading[2]!.trim();
      const id = `${options.idPrefix ?? ''}${slug(text)}`;
      headings.push({ level, text, id });
      out.push(`<h${level} id="${id}">${inline(text)}</h${level}>`);
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const lang = line.slice(3).trim();
      const code: string[] = [];
      i++;
      while (i < lines.length && !at(i).startsWith('```')) code.push(at(i++));
      i++;
      out.push(`<pre><code${lang ? ` class="language-${escapeHtml(lang)}"` : ''}>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (line.trim().startsWith('|') && /^\s*\|?[\s:-]+\|[\s|:-]*$/.test(at(i + 1))) {
      const head = tableCells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && at(i).trim().startsWith('|')) rows.push(tableCells(at(i++)));
      out.push(
        `<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
      continue;
    }
    const listItem = /^(\s*)([-*]|\d+\.)\s+(.*)$/;
    if (listItem.test(line)) {
      const ordered = /\d/.test(listItem.exec(line)![2]!);
      const items: string[] = [];
      while (i < lines.length) {
        const m = listItem.exec(at(i));
        if (!m) break;
        let text = m[3]!;
        i++;
        // Continuation lines: indented, not blank and not a new item.
        while (i < lines.length && /^\s+\S/.test(at(i)) && !listItem.test(at(i))) text += ` ${at(i++).trim()}`;
        items.push(`<li>${inline(text)}</li>`);
      }
      out.push(ordered ? `<ol>${items.join('')}</ol>` : `<ul>${items.join('')}</ul>`);
      continue;
    }
    const paragraph: string[] = [line.trim()];
    i++;
    while (i < lines.length && at(i).trim() !== '' && !isBlockStart(at(i))) paragraph.push(at(i++).trim());
    out.push(`<p>${inline(paragraph.join(' '))}</p>`);
  }
  return { html: out.join('\n'), headings };
}
