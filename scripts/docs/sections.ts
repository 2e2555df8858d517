// The guides' generated blocks (tables, diagrams, examples), placed by scripts/docs/facts.ts. Each reads its facts from the contract (the bundles), the server's
// problem catalogue or the sandbox's test accounts, and fails the build when a fact it needs has gone, rather
// than publishing a page that quietly disagrees with the API.
import { readFile } from 'node:fs/promises';
import { generationCacheSeconds } from '../../server/auth/client-generations.js';
import { failedAttemptLimits } from '../../server/auth/failed-attempts.js';
import { problemTypeBase, problemTypes } from '../../generated/problem-types.js';
import { answeredBy, catalogueAnchor } from './problem-types.js';
import { deref, operationsOf, type PlacedOperation as Operation } from '../contract/document.js';
import { property, repoRoot, requestExample, schema, sentenceContaining, type Node } from './contract.js';
import { enumeration, enumerationCell } from './compatibility.js';
import { escapeHtml, inline } from './markdown.js';
import { groups, type Group } from '../../generated/index.js';
import { mockUrl } from '../mock/servers.js';
import { basePathOf } from '../contract/route-table.js';
import { pagers } from '../../client/paginate.js';

const code = (s: unknown) => `<code>${escapeHtml(String(s))}</code>`;
const pre = (s: string, lang: string) => `<pre><code class="language-${lang}">${escapeHtml(s)}</code></pre>`;
const table = (head: string[], rows: string[][]) =>
  `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
export const localOrigin = 'http://localhost:3000';

/** Who calls each group: the one fact the documents state only in prose. */
const callers: Record<Group, string> = {
  merchant: 'Merchants, with the client credentials from the merchant console.',
  platform: 'Merchants, with the same credentials and token as the merchant payout API.',
  partner: 'Integration partners, for the merchants linked to them.',
  banking: 'Merchants, for the businesses they serve, with their merchant token.',
  counterparty: 'Integration partners, for the merchants linked to them.',
};

const isSecured = (doc: Node, o: Operation) => (o.op.security ?? doc.security ?? []).length > 0;

/** The group's token operation: the unsecured one with a body. */
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
  const cards = groups.map((g) => {
    const doc = bundles[g];
    const server = serverTemplate(doc);
    const token = tokenOperation(doc);
    const tokenServer = serverTemplate(doc, token);
    const ops = operationsOf(doc).length;
    const webhooks = Object.keys(doc.webhooks ?? {}).length;
    return `<div class="card">
  <h3><a href="${g}.html">${escapeHtml(doc.info.title)}</a></h3>
  <p>${inline(String(doc.info.summary ?? ''))}</p>
  <p><strong>Base address</strong> ${code(server.url)} <span class="meta">(${escapeHtml(server.resolved)})</span><br>
     <strong>Local</strong> ${code(localOrigin + basePathOf(doc))} · <strong>Mock</strong> ${code(mockUrl(g))}</p>
  <p><strong>Callers</strong> ${escapeHtml(callers[g])}<br>
     <strong>Token</strong> ${code(`${token.method.toUpperCase()} ${tokenServer.url}${token.path}`)}</p>
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

export function renderWebhooks(bundles: Record<Group, Node>): string {
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
  const registration = requestExample(doc, operationsOf(doc).find((o) => o.op.operationId === 'createWebhook')!);
  const signedExample = Object.values<Node>(
    deref(doc, operationsOf(doc).find((o) => o.op.operationId === 'createWebhook')!.op.requestBody).content['application/json'].examples ??
      {},
  )
    .map((e) => deref(doc, e).value)
    .find((v: Node) => v.signed === true);
  return `<h3>The events</h3>
${table(['Event', 'When', 'Example'], eventRows)}
<h3>Payload</h3>
<p>${inline(String(payload.description ?? ''))}</p>
${table(['Field', 'Type', 'Present', 'Meaning'], fieldRows)}
<h3>Registering</h3>
<p>All events in the sandbox:</p>${pre(JSON.stringify(registration, null, 2), 'json')}
${signedExample ? `<p>Chosen events, production, signed:</p>${pre(JSON.stringify(signedExample, null, 2), 'json')}` : ''}
<h3>Signatures (optional)</h3>
<p>A signed registration's deliveries carry these <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> headers. Verify them over the raw body before parsing it, and refuse old timestamps.</p>
${table(['Header', 'Meaning', 'Example'], headerRows)}`;
}

export function renderErrors(bundles: Record<Group, Node>): string {
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
  return `${pre(`HTTP/1.1 400 Bad Request\nContent-Type: application/problem+json\n\n${JSON.stringify(deref(doc, example).value, null, 2)}`, 'http')}
<h3>Fields</h3>
${table(['Field', 'Present', 'Meaning'], fields)}
<p>Each entry of <code>errors</code>:</p>
${table(['Field', 'Meaning'], fieldErrorRows)}
<h3 id="${catalogueAnchor}">Problem types</h3>
<p>Every <code>type</code> value the service answers with, and where; the last segment is the kind (<code>ApiProblemError.kind</code> in the client). Each operation of the reference lists the kinds it answers (<code>x-problem-types</code> in the documents). New kinds may be added: treat an unknown one by its status.</p>
${table(['type', 'Status', 'Title', 'Answered by'], kinds)}`;
}

export function renderAuth(bundles: Record<Group, Node>): string {
  const rows = groups.map((g) => {
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
  return `${table(['Group', 'Token from', 'Request body', 'Scheme'], rows)}
<h3>The token response</h3>
<p>All groups answer the same shape (RFC 6749 §5.1). There is no refresh token: before <code>expires_in</code> runs out, request a new token with the same credentials.</p>
${table(['Field', 'Meaning'], tokenRows)}
<h3>A partner token</h3>
${pre(`curl -X POST "$SANDBOX_URL${partnerToken.path}" \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(partnerBody, null, 2)}'`, 'sh')}
<p>Failed token requests answer 401 with <code>"error": "invalid_client"</code>, never saying whether the id or the secret was wrong. Within ${failedAttemptLimits.windowMs / 60_000} minutes, ${failedAttemptLimits.perClientAndAddress} failures for one Client ID from one address, or ${failedAttemptLimits.perAddress} from one address across clients, are followed by 429 with <code>Retry-After</code> there, even for the right secret. Never for a Client ID alone: the right secret from another address always gets a token.</p>
<h3>Sending the token</h3>
<p>Send <code>Authorization: Bearer &lt;token&gt;</code>; the scheme is case-insensitive (<code>bearer</code> works). Without a token the answer is 401 with <code>WWW-Authenticate: Bearer realm="payouts"</code>. A token that cannot be used answers 401 with <code>"error": "invalid_token"</code>, a <code>detail</code> saying whether it is not valid, expired or revoked, and the same in the challenge's <code>error_description</code>: request a new token then. Rotating a Client Secret (<code>npm run admin -- rotate-secret</code>) ends the tokens issued under the old one within ${generationCacheSeconds} seconds on every instance.</p>`;
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

export function renderLimits(bundles: Record<Group, Node>): string {
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
    ['Webhook delivery', escapeHtml(sentenceIn(doc, /no resend/i))],
    [
      'Rate limits',
      `${escapeHtml(String(deref(doc, doc.components?.headers?.['RateLimit-Limit'])?.description ?? ''))} A 429 carries ${code('Retry-After')}.`,
    ],
  ];
  return `<h3>Fields</h3>
${table(['Field', 'Bounds'], fieldRows)}
<h3>Page sizes</h3>
${table(['Group', 'Where', 'Range', 'Default'], pageRows)}
<h3>Everything else</h3>
${table(['Limit', 'Value'], other)}`;
}

interface SandboxAccounts {
  outcomes: { endsWith: string; outcome: string; failsAt: string; reason: string; message: string }[];
  examples: Record<string, string>;
}

export async function renderSandbox(): Promise<string> {
  const accounts = JSON.parse(await readFile(`${repoRoot}server/rails/sandbox-test-accounts.json`, 'utf8')) as SandboxAccounts;
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
    const found = groups.flatMap((g) =>
      operationsOf(bundles[g])
        .filter((o) => o.op.operationId === operationId)
        .map((o) => ({ g, o })),
    );
    if (found.length === 0) throw new Error(`the client pager ${pager} walks ${operationId}, which no document has`);
    const { g, o } = found[0]!;
    const titles = [...new Set(found.map((f) => bundles[f.g].info.title))].join(', ');
    const cursor = (o.op.parameters ?? []).some((p: Node) => deref(bundles[g], p).name === 'Cursor');
    const shape = cursor ? 'cursor (<code>nextCursor</code>)' : 'page number';
    return [code(pager), `${code(`${o.method.toUpperCase()} ${o.path}`)} (${escapeHtml(titles)})`, shape];
  });
  return table(['Pager', 'Walks', 'Paging'], rows);
}
