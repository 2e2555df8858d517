// The guides' generated blocks (tables, diagrams, examples), placed by scripts/docs/facts.ts. Each reads its facts from the contract (the bundles), the server's
// problem catalogue or the sandbox's test accounts, and fails the build when a fact it needs has gone, rather
// than publishing a page that quietly disagrees with the API.
import { readFile } from 'node:fs/promises';
import { problemTypeBase, problemTypes } from '../../generated/problem-types.js';
import { answeredBy } from './problem-types.js';
import { deref, operationsOf, operationsOfGroups, type PlacedOperation as Operation } from '../contract/document.js';
import { localOrigin, property, repoRoot, requestExample, schema, sentenceContaining, type Node } from './contract.js';
import { enumeration, enumerationCell } from './compatibility.js';
import { escapeHtml, inline, readMarkdown, sectionsOf, slug } from './markdown.js';
import { groups, type Group } from '../../generated/index.js';
import { mockUrl } from '../mock/servers.js';
import { basePathOf } from '../contract/route-table.js';
import { pagers } from '../../client/paginate.js';

const code = (s: unknown) => `<code>${escapeHtml(String(s))}</code>`;
const pre = (s: string, lang: string) => `<pre><code class="language-${lang}">${escapeHtml(s)}</code></pre>`;
const table = (head: string[], rows: string[][]) =>
  `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/** Who calls each group: the one fact the documents state only in prose (docs/partials/callers.md). */
function callers(): Record<Group, string> {
  const source = 'docs/partials/callers.md';
  const sections = sectionsOf(readMarkdown(`${repoRoot}${source}`));
  return Object.fromEntries(
    groups.map((g) => {
      const text = sections.get(g);
      if (!text) throw new Error(`${source} has no section ## ${g}`);
      return [g, inline(text)];
    }),
  ) as Record<Group, string>;
}

const isSecured = (doc: Node, o: Operation) => (o.op.security ?? doc.security ?? []).length > 0;

/** Whether the group's callers hold a session cookie (the console's), not a bearer token. */
const holdsSession = (doc: Node) =>
  Object.values<Node>(doc.components?.securitySchemes ?? {}).some((s) => s.type === 'apiKey' && s.in === 'cookie');

/** The group's token operation (the console's sign-in): the unsecured one with a body. */
function tokenOperation(doc: Node): Operation {
  const o = operationsOf(doc).find((x) => !isSecured(doc, x) && x.op.requestBody);
  if (!o) throw new Error(`${doc.info?.title} has no token operation`);
  return o;
}

function serverTemplate(doc: Node, o?: Operation): { url: string; resolved: string } {
  const server = (o?.op.servers ?? doc.servers)?.[0];
  if (!server) throw new Error(`${doc.info?.title} has no server`);
  const resolved = String(server.url).replace(/\{([^}]+)\}/g, (_: string, n: string) => String(server.variables?.[n]?.default ?? `{${n}}`));
  return { url: String(server.url), resolved };
}

/** Every distinct string in a document, for facts stated only in descriptions. */
function strings(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node === 'string') out.add(node);
  else if (Array.isArray(node)) for (const n of node) strings(n, out);
  else if (node && typeof node === 'object') for (const n of Object.values(node)) strings(n, out);
  return out;
}

export function sentenceIn(doc: Node, needle: RegExp): string {
  for (const s of strings(doc)) if (needle.test(s)) return sentenceContaining(s, needle);
  throw new Error(`${doc.info?.title} no longer says ${needle}`);
}

export function renderGroups(bundles: Record<Group, Node>): string {
  const callerOf = callers();
  const cards = groups.map((g) => {
    const doc = bundles[g];
    const server = serverTemplate(doc);
    const token = tokenOperation(doc);
    const tokenServer = serverTemplate(doc, token);
    const ops = operationsOf(doc).length;
    const webhooks = Object.keys(doc.webhooks ?? {}).length;
    return `<div class="card">
  <h3 id="${slug(doc.info.title)}"><a href="${g}.html">${escapeHtml(doc.info.title)}</a></h3>
  <p>${inline(String(doc.info.summary ?? ''))}</p>
  <p><strong>Base address</strong> ${code(server.url)} <span class="meta">(${escapeHtml(server.resolved)})</span><br>
     <strong>Local</strong> ${code(localOrigin + basePathOf(doc))} · <strong>Mock</strong> ${code(mockUrl(g))}</p>
  <p><strong>Callers</strong> ${callerOf[g]}<br>
     <strong>${holdsSession(doc) ? 'Sign-in' : 'Token'}</strong> ${code(`${token.method.toUpperCase()} ${tokenServer.url}${token.path}`)}</p>
  <p class="meta">${ops} operations${webhooks ? `, ${webhooks} webhook events` : ''} · <a href="${g}.html">reference</a></p>
</div>`;
  });
  return `<div class="cards">${cards.join('\n')}</div>`;
}

export async function renderStatesSvg(): Promise<string> {
  const svg = await readFile(`${repoRoot}docs/guides/payout-states.svg`, 'utf8');
  return svg.trim();
}

export function renderStatesTable(bundles: Record<Group, Node>): string {
  const doc = bundles.merchant;
  const states: string[] = schema(doc, 'PayoutState').enum;
  const rows = states.map((state) => {
    const event = `payout.${state}`;
    const hook = deref(doc, doc.webhooks?.[event])?.post;
    if (!hook) throw new Error(`no webhook ${event} for state ${state}`);
    return [code(state), code(event), inline(String(hook.description ?? hook.summary).split(/(?<=\.)\s/)[0] ?? '')];
  });
  return table(['State', 'Event', 'Meaning'], rows);
}

/** The webhooks guide's blocks: the events, the payload's fields, registration examples, the signature headers. */
export function webhookBlocks(bundles: Record<Group, Node>): Record<string, string> {
  const doc = bundles.merchant;
  const events = Object.entries<Node>(doc.webhooks ?? {});
  if (events.length === 0) throw new Error('the merchant document has no webhooks');
  const eventRows = events.map(([name, item]) => {
    const op = deref(doc, item).post;
    const example = Object.values<Node>(op.requestBody.content['application/json'].examples ?? {})[0];
    return [
      code(name),
      inline(String(op.description ?? '')).split(/(?<=\.)\s/)[0] ?? '',
      `<details><summary>payload</summary>${pre(JSON.stringify(deref(doc, example).value, null, 2), 'json')}</details>`,
    ];
  });
  const payload = schema(doc, 'PayoutEvent');
  const required = new Set<string>(payload.required ?? []);
  const fieldRows = Object.keys(payload.properties ?? {}).map((p) => {
    const prop = property(doc, 'PayoutEvent', p);
    const values = enumeration(doc, prop);
    const type = values ? enumerationCell(values) : code([prop.type].flat().join(' or ') + (prop.format ? ` (${prop.format})` : ''));
    return [code(p), type, required.has(p) ? 'always' : 'sometimes', inline(String(values?.description ?? prop.description ?? ''))];
  });
  const anyHook = deref(doc, events[0]![1]).post;
  const headerRows = (anyHook.parameters ?? []).map((raw: Node) => {
    const p = deref(doc, raw);
    return [code(p.name), inline(String(p.description ?? '')), code(p.example ?? '')];
  });
  const createWebhook = operationsOf(doc).find((o) => o.op.operationId === 'createWebhook')!;
  const registration = requestExample(doc, createWebhook);
  const signedExample = Object.values<Node>(deref(doc, createWebhook.op.requestBody).content['application/json'].examples ?? {})
    .map((e) => deref(doc, e).value)
    .find((v: Node) => v.signed === true);
  if (!signedExample) throw new Error('createWebhook has no example of a signed registration');
  return {
    'webhook-event-table': table(['Event', 'When', 'Example'], eventRows),
    'webhook-payload': `<p>${inline(String(payload.description ?? ''))}</p>\n${table(['Field', 'Type', 'Present', 'Meaning'], fieldRows)}`,
    'webhook-registration': pre(JSON.stringify(registration, null, 2), 'json'),
    'webhook-signed-registration': pre(JSON.stringify(signedExample, null, 2), 'json'),
    'webhook-signature-headers': table(['Header', 'Meaning', 'Example'], headerRows),
  };
}

/** The errors guide's blocks: an example problem, its fields, and the catalogue of problem types. */
export function errorBlocks(bundles: Record<Group, Node>): Record<string, string> {
  const doc = bundles.merchant;
  const problem = schema(doc, 'Problem');
  const required = new Set<string>(problem.required ?? []);
  const fields = Object.keys(problem.properties ?? {}).map((p) => {
    const prop = property(doc, 'Problem', p);
    return [code(p), required.has(p) ? 'always' : 'when relevant', inline(String(prop.description ?? ''))];
  });
  const fieldError = schema(doc, 'ProblemFieldError');
  const fieldErrorRows = Object.keys(fieldError.properties ?? {}).map((p) => [
    code(p),
    inline(String(property(doc, 'ProblemFieldError', p).description ?? '')),
  ]);
  const answering = answeredBy(bundles);
  const kinds = Object.entries(problemTypes).map(([kind, { status, title }]) => [
    code(problemTypeBase + kind),
    String(status),
    escapeHtml(title),
    answering[kind as keyof typeof problemTypes],
  ]);
  const badRequest = deref(doc, doc.components?.responses?.BadRequest);
  const example = Object.values<Node>(badRequest?.content?.['application/problem+json']?.examples ?? {})[0];
  if (!example) throw new Error('the BadRequest response has no example');
  return {
    'problem-example': pre(
      `HTTP/1.1 400 Bad Request\nContent-Type: application/problem+json\n\n${JSON.stringify(deref(doc, example).value, null, 2)}`,
      'http',
    ),
    'problem-fields': table(['Field', 'Present', 'Meaning'], fields),
    'problem-field-error-fields': table(['Field', 'Meaning'], fieldErrorRows),
    'problem-types': table(['type', 'Status', 'Title', 'Answered by'], kinds),
  };
}

/** The authentication guide's blocks: each group's token operation, the token response, a partner's request. */
export function authBlocks(bundles: Record<Group, Node>): Record<string, string> {
  // The groups called with a bearer token (the console's callers hold a session cookie instead).
  const rows = groups
    .filter((g) => !holdsSession(bundles[g]))
    .map((g) => {
      const doc = bundles[g];
      const token = tokenOperation(doc);
      const server = serverTemplate(doc, token);
      const body = Object.keys(requestExample(doc, token) as Node)
        .map((k) => code(k))
        .join(', ');
      const schemes = Object.entries<Node>(doc.components?.securitySchemes ?? {}).map(
        ([name, s]) =>
          `${code(name)} (${escapeHtml(s.type === 'oauth2' ? 'OAuth 2.0 client credentials' : `${s.scheme} ${s.bearerFormat ?? ''}`.trim())})`,
      );
      return [`<a href="${g}.html">${escapeHtml(doc.info.title)}</a>`, code(`POST ${server.url}${token.path}`), body, schemes.join('<br>')];
    });
  const doc = bundles.merchant;
  const response = schema(doc, 'TokenResponse');
  const tokenRows = Object.keys(response.properties ?? {}).map((p) => [
    code(p),
    inline(String(property(doc, 'TokenResponse', p).description ?? '')),
  ]);
  const partner = bundles.partner;
  const partnerToken = tokenOperation(partner);
  const partnerBody = requestExample(partner, partnerToken);
  return {
    'token-operations': table(['Group', 'Token from', 'Request body', 'Scheme'], rows),
    'token-response-fields': table(['Field', 'Meaning'], tokenRows),
    'partner-token-request': pre(
      `curl -X POST "$SANDBOX_URL${partnerToken.path}" \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(partnerBody, null, 2)}'`,
      'sh',
    ),
  };
}

function bounds(p: Node): string {
  const parts: string[] = [];
  if (p.minLength !== undefined || p.maxLength !== undefined) parts.push(`${p.minLength ?? 0}..${p.maxLength ?? '∞'} characters`);
  if (p.exclusiveMinimum !== undefined)
    parts.push(`greater than ${p.exclusiveMinimum}${p.maximum !== undefined ? `, at most ${p.maximum}` : ''}`);
  else if (p.minimum !== undefined || p.maximum !== undefined) parts.push(`${p.minimum ?? '−∞'}..${p.maximum ?? '∞'}`);
  if (p.maxItems !== undefined) parts.push(`at most ${p.maxItems} items`);
  if (p.format) parts.push(`format ${p.format}`);
  if (p.pattern && String(p.pattern).length <= 40) parts.push(`pattern ${p.pattern}`);
  if (p.enum) parts.push(`one of ${p.enum.filter((e: unknown) => e !== null).join(', ')}`);
  return parts.join('; ');
}

/** The request fields whose limits a caller meets first. */
const limitedFields: { group: Group; schema: string; props: string[] }[] = [
  { group: 'merchant', schema: 'PayeeCreateRequest', props: ['name', 'EmailAddress', 'phoneNumber', 'taxId', 'idType'] },
  { group: 'merchant', schema: 'AddressRequest', props: ['addressLine', 'state', 'city', 'country', 'postalCode'] },
  { group: 'merchant', schema: 'PayeeAccountRequest', props: ['accountHolderName', 'accountNumber', 'IBAN'] },
  { group: 'merchant', schema: 'PayoutCreateRequest', props: ['Amount', 'Currency', 'Description'] },
  { group: 'merchant', schema: 'WebhookCreateRequest', props: ['url', 'events'] },
  { group: 'partner', schema: 'PaymentRequest', props: ['amount', 'description'] },
];

/** The limits guide's blocks: request fields' bounds, page sizes, and the limits stated in descriptions. */
export function limitBlocks(bundles: Record<Group, Node>): Record<string, string> {
  const fieldRows = limitedFields.flatMap(({ group, schema: name, props }) =>
    props.map((p) => [code(`${name}.${p}`), escapeHtml(bounds(property(bundles[group], name, p)))]),
  );

  // Page sizes: every page-size field of a request and every page-size query parameter, in every group.
  const pageRows: string[][] = [];
  for (const g of groups) {
    const doc = bundles[g];
    for (const [name, raw] of Object.entries<Node>(doc.components?.schemas ?? {})) {
      if (!name.endsWith('Request')) continue;
      for (const p of Object.keys(deref(doc, raw).properties ?? {}).filter((k) => /^page_?size$/i.test(k))) {
        const s = property(doc, name, p);
        pageRows.push([escapeHtml(doc.info.title), code(`${name}.${p}`), `${s.minimum}..${s.maximum}`, String(s.default ?? '')]);
      }
    }
    for (const o of operationsOf(doc)) {
      for (const raw of o.op.parameters ?? []) {
        const param = deref(doc, raw);
        if (!/^page_?size$/i.test(param.name)) continue;
        const s = deref(doc, param.schema);
        pageRows.push([
          escapeHtml(doc.info.title),
          code(`${o.method.toUpperCase()} ${o.path} ?${param.name}`),
          `${s.minimum}..${s.maximum}`,
          String(s.default ?? ''),
        ]);
      }
    }
  }
  if (pageRows.length === 0) throw new Error('the contract has no page sizes');

  const doc = bundles.merchant;
  const expires = property(doc, 'TokenResponse', 'expires_in');
  const other = [
    ['Request body', escapeHtml(sentenceIn(doc, /\bMiB\b/))],
    ['Access token lifetime', `${code(`expires_in: ${expires.example}`)} ${escapeHtml(String(expires.description ?? ''))}`],
    ['Webhook registrations', escapeHtml(sentenceIn(doc, /at most \d+ registrations/))],
    ['Accounts per payee', escapeHtml(sentenceIn(doc, /at most \d+ accounts/))],
    ['Webhook delivery', escapeHtml(sentenceIn(doc, /A delivery that fails \(/))],
    [
      'Rate limits',
      `${escapeHtml(String(deref(doc, doc.components?.headers?.['RateLimit-Limit'])?.description ?? ''))} A 429 carries ${code('Retry-After')}.`,
    ],
  ];
  return {
    'field-bounds': table(['Field', 'Bounds'], fieldRows),
    'page-sizes': table(['Group', 'Where', 'Range', 'Default'], pageRows),
    'other-limits': table(['Limit', 'Value'], other),
  };
}

interface SandboxAccounts {
  outcomes: { endsWith: string; outcome: string; failsAt: string; reason: string; message: string }[];
  examples: Record<string, string>;
}

export async function renderSandbox(): Promise<string> {
  const accounts = JSON.parse(await readFile(`${repoRoot}server/domain/rails/sandbox-test-accounts.json`, 'utf8')) as SandboxAccounts;
  const exampleFor = (reason: string) => accounts.examples[reason];
  const rows = accounts.outcomes.map((o) => [
    code(`…${o.endsWith}`),
    exampleFor(o.reason) ? code(exampleFor(o.reason)) : '',
    `${escapeHtml(o.outcome)} at ${code(o.failsAt)}`,
    code(o.reason),
    escapeHtml(o.message),
  ]);
  const completes = accounts.examples.completes;
  if (completes) rows.push([`any other`, code(completes), 'completed', '', 'The payout goes through every state to completed.']);
  return table(['Number ends in', 'Example number', 'Outcome', 'Reason code', 'Message'], rows);
}

/** The client's pager of each paged list, with the operation it walks and the page shape it follows. */
export function renderPagers(bundles: Record<Group, Node>): string {
  const rows = Object.entries(pagers).map(([operationId, pager]) => {
    const found = operationsOfGroups(bundles)
      .filter((o) => o.op.operationId === operationId)
      .map((o) => ({ g: o.group, o }));
    if (found.length === 0) throw new Error(`the client pager ${pager} walks ${operationId}, which no document has`);
    const { g, o } = found[0]!;
    const titles = [...new Set(found.map((f) => bundles[f.g].info.title))].join(', ');
    const cursor = (o.op.parameters ?? []).some((p: Node) => deref(bundles[g], p).name === 'Cursor');
    const shape = cursor ? 'cursor (<code>nextCursor</code>)' : 'page number';
    return [code(pager), `${code(`${o.method.toUpperCase()} ${o.path}`)} (${escapeHtml(titles)})`, shape];
  });
  return table(['Pager', 'Walks', 'Paging'], rows);
}
