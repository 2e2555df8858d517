// The static half of the "opens offline" rule: references in a built page that make a browser fetch something
// from another host when the page opens (scripts, stylesheets, fonts, images, frames, module imports). Links
// a reader may click (<a href>) and URLs that only appear as text are fine. The browser test checks the rest.

const remote = '(?:https?:)?//';
const patterns: { what: string; re: RegExp }[] = [
  {
    what: 'HTML element loading a remote resource',
    re: new RegExp(
      String.raw`<(?:script|img|iframe|frame|source|video|audio|embed|object|track|input)\b[^>]*\s(?:src|srcset|data|poster)\s*=\s*["']?\s*${remote}`,
      'gi',
    ),
  },
  { what: '<link> to a remote resource', re: new RegExp(String.raw`<link\b[^>]*\shref\s*=\s*["']?\s*${remote}`, 'gi') },
  { what: 'CSS url() of a remote resource', re: new RegExp(String.raw`url\(\s*["']?\s*${remote}`, 'gi') },
  { what: 'CSS @import', re: /@import\s/gi },
  { what: 'remote font service', re: /fonts\.(?:googleapis|gstatic)\.com|use\.typekit\.net/gi },
  { what: 'JS module import from a remote URL', re: new RegExp(String.raw`\b(?:import\s*\(?|from)\s*["'\x60]${remote}`, 'gi') },
  // `src:` / `src=` followed by a remote literal, also behind a short expression (`src: full ? 'https://…'`).
  { what: 'JS src assignment of a remote URL', re: new RegExp(String.raw`\bsrc\s*[:=]\s*[^,;{}()]{0,40}?["'\x60]${remote}`, 'gi') },
  { what: 'JS fetch of a remote URL', re: new RegExp(String.raw`\bfetch\(\s*["'\x60]${remote}`, 'gi') },
  { what: 'importScripts', re: /\bimportScripts\s*\(/gi },
];

/** Each remote reference found, with a little context; empty for a page that opens offline. */
export function remoteReferences(html: string): string[] {
  const found: string[] = [];
  for (const { what, re } of patterns) {
    for (const m of html.matchAll(re)) {
      const start = Math.max(0, m.index - 40);
      found.push(`${what}: …${html.slice(start, m.index + m[0].length + 80).replace(/\s+/g, ' ')}…`);
    }
  }
  return found;
}
