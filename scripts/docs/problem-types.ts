// The problem catalogue in the docs: on the errors guide, every kind with its status, title and the operations that
// answer it (from each operation's `x-problem-types`); on each reference page, every operation's own kinds, appended
// to its description (Redoc shows no vendor extension on its own).
import { problemTypeBase, problemTypes } from '../../generated/problem-types.js';
import { groups, type Group } from '../../generated/index.js';
import { operationsOfGroups, type Node } from '../contract/document.js';
import { repoRoot, type DocumentTransform } from './contract.js';
import { escapeHtml, readMarkdown } from './markdown.js';

type Kind = keyof typeof problemTypes;

/** The errors guide's anchor of the catalogue, which each operation's list links to. */
export const catalogueAnchor = 'problem-types';

const kindsOf = (op: Node): Kind[] => (Array.isArray(op['x-problem-types']) ? (op['x-problem-types'] as Kind[]) : []);

/** The Markdown appended to an operation's description: docs/partials/operation-problem-types.md, then the table. */
function operationTable(kinds: Kind[], lead: string): string {
  const rows = kinds.map((k) => `| \`${k}\` | ${problemTypes[k]?.status ?? '?'} | ${problemTypes[k]?.title ?? ''} |`);
  return [lead, '', '| kind | status | title |', '|---|---|---|', ...rows].join('\n');
}

/** The sentence before each operation's table, its placeholders filled. */
function operationLead(): string {
  const source = 'docs/partials/operation-problem-types.md';
  const facts: Record<string, string> = { 'problem-type-base': problemTypeBase, catalogue: `errors.html#${catalogueAnchor}` };
  return readMarkdown(`${repoRoot}${source}`)
    .trim()
    .replace(/\{\{([a-z-]+)\}\}/g, (_, name: string) => {
      if (facts[name] === undefined) throw new Error(`${source} has a placeholder {{${name}}} the builder does not fill`);
      return facts[name]!;
    });
}

let lead: string | undefined;

/** The reference's transform that ends each operation's description with the kinds it answers. */
export const problemTypesTransform: DocumentTransform = {
  operation({ op }) {
    const kinds = kindsOf(op);
    lead ??= operationLead();
    if (kinds.length > 0) op.description = `${String(op.description ?? '').trimEnd()}\n\n${operationTable(kinds, lead)}`;
  },
};

/** Which operations answer each kind: a phrase where they are all of a kind of operation, else their names. */
export function answeredBy(bundles: Record<Group, Node>): Record<Kind, string> {
  const all = operationsOfGroups(bundles).map(({ group, op }) => ({
    group,
    id: String(op.operationId),
    secured: (op.security ?? bundles[group].security ?? []).some((s: Node) => Object.keys(s).length > 0),
    body: Boolean(op.requestBody),
    kinds: kindsOf(op),
  }));
  const same = (a: typeof all, b: typeof all) => a.length === b.length && a.every((x) => b.includes(x));
  const phrases: [typeof all, string][] = [
    [all, 'every operation'],
    [all.filter((o) => o.secured), 'every operation that takes a token'],
    [all.filter((o) => o.body), 'every operation with a body'],
  ];
  const out = {} as Record<Kind, string>;
  for (const kind of Object.keys(problemTypes) as Kind[]) {
    const answering = all.filter((o) => o.kinds.includes(kind));
    const phrase = phrases.find(([set]) => same(answering, set))?.[1];
    if ((problemTypes[kind] as { unrouted?: boolean }).unrouted) out[kind] = 'any request, before it reaches an operation';
    else if (phrase) out[kind] = phrase;
    else
      out[kind] = groups
        .map((g) => {
          const ids = [...new Set(answering.filter((o) => o.group === g).map((o) => o.id))];
          return ids.length === 0
            ? ''
            : `<a href="${g}.html">${escapeHtml(bundles[g].info.title)}</a>: ${ids.map((id) => `<code>${id}</code>`).join(', ')}`;
        })
        .filter(Boolean)
        .join('<br>');
  }
  return out;
}
