// The problem-type rules of the contract (openapi/README.md, "Problem types"), over the bundled documents: every
// operation lists the problem kinds it answers in `x-problem-types`; each listed kind is in the catalogue
// (Problem.type's `x-problem-types`) with a status the operation documents; each documented failure status has a
// kind; what the operation's shape implies (a body, a token, an Idempotency-Key) and what its texts promise
// (`problems/<kind>`) is listed; the catalogue holds no kind that nothing answers; and an operation that documents
// 404 gives its own example (`x-not-found`, not-found-examples.ts). Each finding says what to add.
//
// Not a Redocly rule: Redocly lints each API on its own, and these rules need them all at once (a catalogue kind that no
// operation of any group lists; a path item shared by two groups judged once, at its file); a configurable rule cannot
// relate an operation's `x-problem-types` to its responses and the catalogue; and a plugin is JavaScript Redocly loads
// itself, which the tests that feed these rules broken documents (test/contract/problem-types-lint.test.ts) would
// reach only through Redocly's own loader.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { deref, isLocalRef, operationsOf, type Node as Document, type Node } from './document.js';

interface Kind {
  status: number;
  title: string;
  unrouted?: boolean;
}

const mention = /problems\/([a-z0-9-]+)/g;

/** The shared response of each failure status, to name in a finding. */
const sharedResponse: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  500: 'InternalServerError',
};

/** Every `description` under a node, following $refs (each target once). */
function descriptions(doc: Node, node: unknown, seen = new Set<unknown>(), out: string[] = []): string[] {
  const n = deref(doc, node);
  if (!n || typeof n !== 'object' || seen.has(n)) return out;
  seen.add(n);
  if (Array.isArray(n)) for (const item of n) descriptions(doc, item, seen, out);
  else
    for (const [key, value] of Object.entries(n)) {
      if (key === 'description' && typeof value === 'string') out.push(value);
      else if (key !== 'examples' && key !== 'example') descriptions(doc, value, seen, out);
    }
  return out;
}

const mentioned = (texts: string[]) => new Set(texts.flatMap((t) => [...t.matchAll(mention)].map((m) => m[1]!)));

/** The catalogue every document carries on its Problem schema. */
export function catalogueOf(doc: Node): Record<string, Kind> | undefined {
  return doc.components?.schemas?.Problem?.properties?.type?.['x-problem-types'];
}

/** Where the path item of `path` is written: the group's own paths/ folder, else shared/paths/. */
function sourceOf(root: string, group: string, path: string): string {
  const name = `${path.slice(1).replace(/\//g, '_')}.yaml`;
  const own = `openapi/${group}/paths/${name}`;
  return existsSync(join(root, own)) ? own : `openapi/shared/paths/${name}`;
}

/** The kinds an operation's shape implies, each with the reason a finding gives. */
export function impliedKinds(doc: Node, item: Node, op: Node): Map<string, string> {
  const implied = new Map<string, string>([
    ['validation-error', 'every operation refuses an invalid request (an unknown query parameter at least)'],
    ['rate-limited', 'every operation is rate limited'],
    ['internal-error', 'every operation can fail on our side'],
  ]);
  if (op.requestBody) {
    implied.set('malformed-json', 'it takes a body');
    implied.set('payload-too-large', 'it takes a body');
    implied.set('unsupported-media-type', 'it takes a body');
  }
  if ((op.security ?? doc.security ?? []).some((s: Node) => Object.keys(s).length > 0)) {
    implied.set('unauthorized', 'it needs a token');
    implied.set('forbidden', 'it needs a token of one kind of caller');
  }
  const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
  if (parameters.some((p) => p?.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key'))
    implied.set('idempotency-conflict', 'it takes an Idempotency-Key');
  return implied;
}

export function problemTypeFindings(bundles: Map<string, Document>, root: string): string[] {
  const findings: string[] = [];
  const listedAnywhere = new Set<string>();
  // A path item two groups share is one source: its findings are reported once.
  const checked = new Set<string>();
  let catalogue: Record<string, Kind> | undefined;
  for (const [group, doc] of bundles) {
    const kinds = catalogueOf(doc);
    if (!kinds) {
      findings.push(`${group}: its Problem schema carries no catalogue (x-problem-types on Problem.type)`);
      continue;
    }
    catalogue ??= kinds;
    const listedInDoc = new Set<string>();
    for (const { path, method, op, pathItem: item } of operationsOf(doc)) {
      const source = sourceOf(root, group, path);
      const where = `${group} ${op.operationId} (${method.toUpperCase()} ${path}, ${source})`;
      const listed: unknown = op['x-problem-types'];
      for (const kind of Array.isArray(listed) ? listed : []) {
        listedInDoc.add(String(kind));
        listedAnywhere.add(String(kind));
      }
      if (checked.has(`${source} ${method}`)) continue;
      checked.add(`${source} ${method}`);
      const statuses = new Set(
        Object.keys(op.responses ?? {})
          .filter((s) => /^[45]\d\d$/.test(s))
          .map(Number),
      );
      const implied = impliedKinds(doc, item, op);
      const promised = mentioned(descriptions(doc, { op: { ...op, responses: undefined }, parameters: item.parameters }));
      if (!Array.isArray(listed) || listed.some((k) => typeof k !== 'string')) {
        const proposal = [...new Set([...implied.keys(), ...promised])].filter((k) => kinds[k]);
        const order = Object.keys(kinds);
        proposal.sort((a, b) => order.indexOf(a) - order.indexOf(b));
        const uncovered = [...statuses].filter((s) => !proposal.some((k) => kinds[k]!.status === s));
        findings.push(
          `${where}: add \`x-problem-types: [${proposal.join(', ')}]\` beside its responses` +
            (uncovered.length > 0
              ? `, plus the kinds its domain answers for ${uncovered.join(', ')} (${uncovered
                  .map((s) => `${s}: one of ${kindsOf(kinds, s).join(', ')}`)
                  .join('; ')})`
              : ''),
        );
        continue;
      }
      const list = listed as string[];
      const duplicates = list.filter((k, i) => list.indexOf(k) !== i);
      if (duplicates.length > 0) findings.push(`${where}: x-problem-types names ${[...new Set(duplicates)].join(', ')} twice; keep one`);
      for (const kind of new Set(list)) {
        const known = kinds[kind];
        if (!known)
          findings.push(
            `${where}: x-problem-types names ${kind}, which is not in the catalogue: add it to openapi/shared/schemas/Problem.yaml with its status and title, or remove it here`,
          );
        else if (known.unrouted)
          findings.push(`${where}: x-problem-types names ${kind}, which answers only requests that match no operation: remove it`);
        else if (!statuses.has(known.status))
          findings.push(
            `${where}: x-problem-types names ${kind} (status ${known.status}) but the operation documents no ${known.status}: add \`'${known.status}': $ref: '../../shared/responses/${sharedResponse[known.status] ?? '?'}.yaml'\` or remove ${kind}`,
          );
      }
      for (const status of statuses) {
        if (!list.some((k) => kinds[k]?.status === status))
          findings.push(
            `${where}: documents ${status} but x-problem-types names no kind of status ${status}: add the one it answers (${kindsOf(kinds, status).join(', ')}), or remove the ${status} response if it cannot happen`,
          );
      }
      for (const [kind, why] of implied)
        if (!list.includes(kind)) findings.push(`${where}: x-problem-types lacks ${kind} (${why}): add it`);
      for (const kind of promised)
        if (!list.includes(kind))
          findings.push(`${where}: its texts promise problems/${kind}; add ${kind} to x-problem-types, or change the text`);
      // The bundle has made each `x-not-found` into its operation's 404 example: what is left was not used.
      const notFound = op.responses?.['404'];
      if (op['x-not-found'] !== undefined)
        findings.push(
          `${where}: x-not-found gives the example of a 404 that refers to shared/responses/NotFound.yaml, which the operation does not document: remove it or document the 404`,
        );
      else if (notFound && isLocalRef(notFound.$ref))
        findings.push(
          `${where}: its 404 shows the shared example; add \`x-not-found: {detail: ...}\` beside x-problem-types, with the detail the service answers for this operation's resource`,
        );
      for (const [status, response] of Object.entries<Node>(op.responses ?? {}))
        if (!isLocalRef(response?.$ref)) findings.push(...problemExampleFindings(`${where} ${status}`, doc, response, kinds));
    }
    for (const kind of mentioned([String(doc.info?.description ?? '')]))
      if (!listedInDoc.has(kind))
        findings.push(`${group}: info.description promises problems/${kind}, but none of its operations lists it in x-problem-types`);
    findings.push(...exampleFindings(group, doc, kinds));
  }
  for (const [kind, { unrouted }] of Object.entries(catalogue ?? {}))
    if (!unrouted && !listedAnywhere.has(kind))
      findings.push(
        `catalogue: ${kind} is listed by no operation's x-problem-types: list it where the server answers it, mark it \`unrouted: true\` if only requests matching no operation get it, or remove it`,
      );
  return findings;
}

const kindsOf = (kinds: Record<string, Kind>, status: number) =>
  Object.entries(kinds)
    .filter(([, k]) => k.status === status && !k.unrouted)
    .map(([name]) => name);

/** The problem examples of the shared responses: each a catalogue kind with its own status and title. */
function exampleFindings(group: string, doc: Node, kinds: Record<string, Kind>): string[] {
  return Object.entries<Node>(doc.components?.responses ?? {}).flatMap(([name, raw]) =>
    problemExampleFindings(`${group} response ${name}`, doc, raw, kinds),
  );
}

/** The problem examples of one response (a shared one, or an operation's own 404): each as its kind in the catalogue. */
function problemExampleFindings(where: string, doc: Node, raw: unknown, kinds: Record<string, Kind>): string[] {
  const base = doc.components?.schemas?.Problem?.properties?.type?.['x-problem-type-base'] as string | undefined;
  const out: string[] = [];
  const media = deref(doc, raw)?.content?.['application/problem+json'];
  for (const [exampleName, ex] of Object.entries<Node>(media?.examples ?? {})) {
    const value = deref(doc, ex)?.value;
    if (!value || typeof value.type !== 'string') continue;
    const kind = base && value.type.startsWith(base) ? value.type.slice(base.length) : undefined;
    const known = kind ? kinds[kind] : undefined;
    const at = `${where}, example ${exampleName}`;
    if (!known) out.push(`${at}: type ${value.type} is not in the catalogue`);
    else if (value.status !== known.status || value.title !== known.title)
      out.push(`${at}: ${kind} has status ${known.status} and title "${known.title}" in the catalogue; the example must say the same`);
  }
  return out;
}
