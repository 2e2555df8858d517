// The landing page's quick start: curl steps whose bodies, paths and answers are the contract's examples, and
// the client code of docs/landing/quickstart.ts (run by the mock tests) between its `docs:` markers.
import { readFile } from 'node:fs/promises';
import {
  deref,
  operationById,
  parameterExample,
  repoRoot,
  requestExample,
  successExample,
  type Node,
  type Operation,
} from './docs-contract.js';
import { escapeHtml, inline } from './docs-markdown.js';
import type { Group } from '../generated/index.js';

interface Step {
  title: string;
  /** Markdown-ish prose (inline code spans allowed). */
  text: string;
  group: Group;
  operationId: string;
  /** Path parameters taken from an earlier step's answer (the examples agree with each other). */
  path?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const steps: Step[] = [
  {
    title: 'Get a token',
    text: 'Exchange the Client ID and Client Secret for a bearer token that lives `expires_in` seconds. The same endpoint takes the RFC 6749 form body (`-d grant_type=client_credentials -d client_id=… -d client_secret=…`). When it expires, ask again with the same credentials.',
    group: 'merchant',
    operationId: 'issueToken',
  },
  {
    title: 'Create a payee',
    text: 'An individual needs contact data and an address; a business also needs `taxId` and `phoneNumber`. The answer carries the payee `id` the next calls take, and shows `taxId` only as its last four letters or digits.',
    group: 'merchant',
    operationId: 'createPayee',
  },
  {
    title: "Add the payee's bank account",
    text: "A `BANK_ACCOUNT` needs the holder, bank, routing and account numbers and the account type; an `IBAN` account needs the `IBAN`. Account numbers come back as their last four digits. In the sandbox, the last four digits choose the payout's outcome (see the test accounts below).",
    group: 'merchant',
    operationId: 'createPayeeAccount',
  },
  {
    title: 'Preview the fee',
    text: 'The platform group prices a payout by destination country, currency and rail before you make it: itemised fees, the total fee and the total debit.',
    group: 'platform',
    operationId: 'calculateFees',
  },
  {
    title: 'Create the payout',
    text: "Accepted with `202` in state `created`, then processed asynchronously. Without `PayeeAccountId` the payee's most recent active account in the payout's `Currency` is used; a currency the account does not take is refused (422 naming `Currency`), never converted. Send an `Idempotency-Key` so a retry after a network error cannot pay twice.",
    group: 'merchant',
    operationId: 'createPayout',
    headers: { 'Idempotency-Key': '3f1b8a52-6f0e-4d59-9d2b-1c7a0e5e9f10' },
  },
  {
    title: 'Follow the payout',
    text: 'Read it by its `PayoutUniqueReference` at any time; `Status` is one of the states below, and `Reasons` says why a payout failed or was cancelled.',
    group: 'merchant',
    operationId: 'getPayout',
  },
  {
    title: 'Receive the webhooks',
    text: 'Register your endpoint once; every payout state change is then POSTed to it (below: the registration, then one delivery your endpoint receives).',
    group: 'merchant',
    operationId: 'createWebhook',
  },
];

/** `{base_url}/payouts` → `$BASE_URL/payouts`: the server template as shell variables. */
const shellUrl = (template: string) => template.replace(/\{([^}]+)\}/g, (_, v: string) => `$${v.toUpperCase()}`);
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const json = (v: unknown) => JSON.stringify(v, null, 2);

interface ServerVariable {
  name: string;
  default: string;
  description: string;
}

/** The server template an operation is called at (its own `servers`, else the document's) and its variables. */
function serverOf(doc: Node, o: Operation): { url: string; variables: ServerVariable[] } {
  const server = (o.op.servers ?? doc.servers)?.[0];
  if (!server) throw new Error(`${o.op.operationId} has no server`);
  const variables = Object.entries<Node>(server.variables ?? {}).map(([name, v]) => ({
    name,
    default: String(v.default),
    description: String(v.description ?? ''),
  }));
  return { url: String(server.url), variables };
}

function fillPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(String(values[name]));
  });
}

function curlFor(doc: Node, o: Operation, pathValues: Record<string, unknown>, headers: Record<string, string>, secured: boolean): string {
  const { url } = serverOf(doc, o);
  const lines = [`curl -X ${o.method.toUpperCase()} "${shellUrl(url)}${fillPath(o.path, pathValues)}"`];
  if (secured) lines.push(`-H "Authorization: Bearer $TOKEN"`);
  for (const [k, v] of Object.entries(headers)) lines.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  if (o.op.requestBody) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(json(requestExample(doc, o)).replace(/\n/g, '\n  '))}`);
  }
  return lines.join(' \\\n  ');
}

const pre = (code: string, lang: string) => `<pre><code class="language-${lang}">${escapeHtml(code)}</code></pre>`;

/** The curl walk-through, one card per step, with the documented answer under each. */
export function renderCurlSteps(bundles: Record<Group, Node>): string {
  const used = new Map<string, ServerVariable>();
  const previous: Record<string, unknown> = {};
  const out: string[] = [];
  steps.forEach((step, i) => {
    const doc = bundles[step.group];
    const o = operationById(doc, step.operationId);
    for (const v of serverOf(doc, o).variables) used.set(v.name, v);
    // Path values: an earlier answer's field of the same name (`id` of the payee, `PayoutUniqueReference`), else the example.
    const pathValues: Record<string, unknown> = {};
    for (const name of [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!))
      pathValues[name] = previous[name] ?? parameterExample(doc, o, name);
    const secured = (o.op.security ?? doc.security ?? []).length > 0;
    const answer = successExample(doc, o);
    if (answer.example && typeof answer.example === 'object') Object.assign(previous, answer.example);
    const curl = curlFor(doc, o, pathValues, step.headers ?? {}, secured);
    const tokenLine = step.operationId === 'issueToken' ? `\n# then: export TOKEN=<access_token of the answer>` : '';
    out.push(`<div class="step" id="step-${i + 1}">
  <h3><span class="number">${i + 1}</span>${escapeHtml(step.title)}</h3>
  <p>${inline(step.text)} <span class="method ${o.method}">${o.method.toUpperCase()}</span> <code>${escapeHtml(o.path)}</code> · <a href="${step.group}.html">${escapeHtml(doc.info.title)}</a></p>
  ${pre(curl + tokenLine, 'sh')}
  <details${i < 2 ? ' open' : ''}><summary>Answer: ${answer.status}</summary>${answer.example === undefined ? '<p>No body.</p>' : pre(json(answer.example), 'json')}</details>
</div>`);
  });
  const webhook = bundles.merchant.webhooks?.['payout.completed'];
  if (!webhook) throw new Error('the merchant document has no payout.completed webhook');
  const delivery = deref(bundles.merchant, webhook).post;
  const payload = Object.values<Node>(delivery.requestBody.content['application/json'].examples)[0];
  const endpoint = new URL(String((requestExample(bundles.merchant, operationById(bundles.merchant, 'createWebhook')) as Node).url));
  out.push(`<p>A delivery, as your endpoint receives it (the <code>payout.completed</code> event; signed registrations add the <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers):</p>
${pre(`POST ${endpoint.pathname} HTTP/1.1\nHost: ${endpoint.host}\nContent-Type: application/json\n\n${json(deref(bundles.merchant, payload).value)}`, 'http')}`);

  const env = [...used.values()]
    .map((v) => `# {${v.name}}. ${v.description.replace(/^Origin of the [^.]*\.\s*/, '')}\nexport ${v.name.toUpperCase()}=${v.default}`)
    .join('\n');
  return `<p>Set the addresses first (the contract's defaults; point them at the sandbox or a local server to try things):</p>
${pre(env, 'sh')}
${out.join('\n')}`;
}

/** The code between `// docs:begin <name>` and `// docs:end <name>`, dedented. */
export function region(source: string, name: string): string {
  const begin = source.indexOf(`// docs:begin ${name}\n`);
  const end = source.indexOf(`// docs:end ${name}`);
  if (begin < 0 || end < begin) throw new Error(`docs/landing/quickstart.ts has no docs:begin/end ${name} region`);
  const lines = source.slice(begin, end).split('\n').slice(1);
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** The client walk-through and the webhook receiver, from docs/landing/quickstart.ts. */
export async function renderClientCode(bundles: Record<Group, Node>): Promise<{ client: string; receiver: string }> {
  const source = await readFile(`${repoRoot}docs/landing/quickstart.ts`, 'utf8');
  const defaults = (g: Group, operationId: string) => {
    const doc = bundles[g];
    const { url, variables } = serverOf(doc, operationById(doc, operationId));
    return url.replace(/\{([^}]+)\}/g, (_, n: string) => variables.find((v) => v.name === n)?.default ?? `{${n}}`);
  };
  const preamble = [
    `import { createMerchantClient, createPlatformClient, unwrap } from 'payout-service/client';`,
    '',
    `const credentials = { clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! };`,
    `const authUrl = '${defaults('merchant', 'issueToken')}'; // {auth_url}`,
    `const baseUrl = '${defaults('merchant', 'createPayee')}'; // {base_url}`,
    `const platformUrl = '${defaults('platform', 'calculateFees')}'; // {sandbox_url}/payouts`,
    '',
  ].join('\n');
  const client = pre(`${preamble}\n${region(source, 'client')}`, 'ts');
  const receiver = pre(
    `import { receivePayoutEvent } from 'payout-service/client';\n\n${region(source, 'receiver')}\n\n// In your HTTP handler: read the raw body, answer 200 at once, then handle the event:\n//   await handlePayoutWebhook(rawBody, new Headers(req.headers), process.env.WEBHOOK_SECRET);`,
    'ts',
  );
  return { client, receiver };
}
