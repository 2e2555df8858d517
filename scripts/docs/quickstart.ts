// The quick-start guide: the bash scripts in docs/quickstarts/, shown step by step exactly as
// `npm run docs` copies them to docs/dist/ (test/docs/quickstarts.test.ts runs them against a real server), each
// step linked to the operations it calls; and the client code of docs/guides/quickstart.ts (run by the mock tests)
// between its `docs:` markers.
import { readFile } from 'node:fs/promises';
import type { PlacedOperation as Operation } from '../contract/document.js';
import { operationById, repoRoot, type Node } from './contract.js';
import { escapeHtml, slug } from './markdown.js';
import { groups, type Group } from '../../generated/index.js';

/** A quick-start script. Its title and introduction are docs/guides/quick-start.md's, whose heading `{#<id>}` is
 * followed by `{{<id>-file}}` (the download link) and the block `{{<id>}}` (the script, step by step). */
export interface QuickStartScript {
  /** Anchor of its part of the quick-start guide, and the name of its placeholders. */
  id: string;
  /** The source, from the repository's root. */
  source: string;
  /** The copy in docs/dist/, the same bytes. */
  file: string;
}

export const quickStartScripts: QuickStartScript[] = [
  {
    id: 'quick-start-merchant',
    source: 'docs/quickstarts/merchant.sh',
    file: 'quickstart.sh',
  },
  {
    id: 'quick-start-partner',
    source: 'docs/quickstarts/partner.sh',
    file: 'quickstart-partner.sh',
  },
  {
    id: 'quick-start-banking',
    source: 'docs/quickstarts/banking.sh',
    file: 'quickstart-banking.sh',
  },
];

export interface ScriptStep {
  /** Absent for the lines before the first step. */
  number?: number;
  title?: string;
  operations: { group: Group; operation: Operation }[];
  /** The step's lines, as in the script. */
  code: string;
}

// A step starts with `# N. Title ...`; its opening comment names each operation it calls as
// `(operationId, group API)` or `(a and b, group API)`.
const stepStart = /^# (\d+)\. (.+?)(?= \(|: |\. |\.?$)/;
const operationNames = /\((\w+(?: and \w+)*), (\w+) API\)/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The request line a step must hold for an operation: its method and path under `$BASE_URL`, parameters as variables. */
function callPattern(doc: Node, o: Operation): RegExp {
  const server = String((o.op.servers ?? doc.servers)?.[0]?.url ?? '');
  const prefix = server.replace(/^\{[^}]+\}/, '');
  const path = (prefix + o.path)
    .split(/\{[^}]+\}/)
    .map(escapeRegExp)
    .join('[^/"?]+');
  const method = o.method === 'get' ? '' : `-X ${o.method.toUpperCase()} `;
  return new RegExp(`${escapeRegExp(method)}"\\$BASE_URL${path}(\\?[^"]*)?"`);
}

/**
 * The script in steps, the lines before the first step as the first block. Steps are separated by one blank line, so
 * the blocks joined by blank lines are the script itself; a step naming an operation the contract lacks, or not
 * calling it at its path, fails the build.
 */
export function scriptSteps(script: string, bundles: Record<Group, Node>, source = 'the script'): ScriptStep[] {
  const blocks = script.trimEnd().split(/\n\n(?=# \d+\. )/);
  const steps = blocks.map((code): ScriptStep => {
    const start = stepStart.exec(code.split('\n', 1)[0]!);
    if (!start) return { operations: [], code };
    const lines = code.split('\n');
    const code0 = lines.findIndex((l) => !l.startsWith('#'));
    const comment = lines.slice(0, code0 < 0 ? lines.length : code0).join(' ');
    const operations = [...comment.matchAll(operationNames)].flatMap(([, ids, group]) => {
      if (!groups.includes(group as Group)) throw new Error(`${source}, step ${start[1]}: no API group ${group}`);
      return ids!.split(' and ').map((id) => {
        const operation = operationById(bundles[group as Group], id);
        if (!callPattern(bundles[group as Group], operation).test(code))
          throw new Error(`${source}, step ${start[1]}: names ${id} but does not call ${operation.method.toUpperCase()} ${operation.path}`);
        return { group: group as Group, operation };
      });
    });
    return { number: Number(start[1]), title: start[2]!.trim(), operations, code };
  });
  if (steps[0]?.number !== undefined || steps.length < 2) throw new Error(`${source} has no preamble or no numbered steps`);
  steps.slice(1).forEach((s, i) => {
    if (s.number !== i + 1) throw new Error(`${source}: step ${s.number} where step ${i + 1} was expected`);
  });
  return steps;
}

/** The reference page's anchor of an operation: Redoc routes `#/<tag slug>/<operationId in lower case>`. */
export function referenceHref(group: Group, o: Operation): string {
  const tag = o.op.tags?.[0];
  if (!tag) throw new Error(`${o.op.operationId} has no tag`);
  return `${group}.html#/${slug(String(tag))}/${String(o.op.operationId).toLowerCase()}`;
}

const pre = (code: string, lang: string) => `<pre><code class="language-${lang}">${escapeHtml(code)}</code></pre>`;

async function renderScript(q: QuickStartScript, bundles: Record<Group, Node>): Promise<string> {
  const script = await readFile(`${repoRoot}${q.source}`, 'utf8');
  const [preamble, ...steps] = scriptSteps(script, bundles, q.source);
  const cards = steps.map((step) => {
    const calls = step.operations
      .map(
        ({ group, operation: o }) =>
          `<span class="method ${o.method}">${o.method.toUpperCase()}</span> <a href="${referenceHref(group, o)}"><code>${escapeHtml(String(o.op.operationId))}</code></a> <code>${escapeHtml(o.path)}</code>`,
      )
      .join('<br>');
    return `<div class="step" id="${q.id}-${step.number}">
  <h4><span class="number">${step.number}</span>${escapeHtml(step.title!)}</h4>
  ${calls ? `<p class="calls">${calls}</p>` : ''}
  ${pre(step.code, 'sh')}
</div>`;
  });
  return `<div class="quick-start-script" data-file="${q.file}">
${pre(preamble!.code, 'sh')}
${cards.join('\n')}
</div>`;
}

/** The download link of a script and the command that runs it (Markdown with inline HTML). */
const downloadLink = (q: QuickStartScript) => `<a href="${q.file}" download><code>${q.file}</code></a> (\`bash docs/dist/${q.file}\`)`;

/** Every quick start's facts: `<id>` the script step by step (a block), `<id>-file` its download link (inline). */
export async function quickStartFacts(
  bundles: Record<Group, Node>,
): Promise<{ inline: Record<string, string>; block: Record<string, string> }> {
  const blocks = await Promise.all(quickStartScripts.map(async (q) => [q.id, await renderScript(q, bundles)] as const));
  return {
    inline: Object.fromEntries(quickStartScripts.map((q) => [`${q.id}-file`, downloadLink(q)])),
    block: Object.fromEntries(blocks),
  };
}

/** The code between `// docs:begin <name>` and `// docs:end <name>`, dedented. */
export function region(source: string, name: string): string {
  const begin = source.indexOf(`// docs:begin ${name}\n`);
  const end = source.indexOf(`// docs:end ${name}`);
  if (begin < 0 || end < begin) throw new Error(`docs/guides/quickstart.ts has no docs:begin/end ${name} region`);
  const lines = source.slice(begin, end).split('\n').slice(1);
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** The webhook receiver as the webhooks guide shows it: docs/guides/quickstart.ts's region, with its imports and
 * the line that starts it (test/docs/guide-code.test.ts compiles this text as a Node program). */
export function receiverText(source: string): string {
  return [
    `import { createServer } from 'node:http';`,
    `import { constructEvent, isPayoutEvent, WebhookVerificationError, type WebhookEvent } from '@payout-service/client';`,
    '',
    region(source, 'receiver'),
    '',
    `webhookReceiver(process.env.WEBHOOK_SECRET, (event) => console.log(describePayoutEvent(event))).listen(8080);`,
  ].join('\n');
}

/** The client walk-through and the webhook receiver as the pages show them, as plain text. */
export async function clientCodeTexts(bundles: Record<Group, Node>): Promise<{ client: string; receiver: string }> {
  const source = await readFile(`${repoRoot}docs/guides/quickstart.ts`, 'utf8');
  // The server an operation is called at (its own `servers`, else the document's), with the variables' defaults.
  const defaults = (g: Group, operationId: string) => {
    const doc = bundles[g];
    const server = (operationById(doc, operationId).op.servers ?? doc.servers)?.[0];
    if (!server) throw new Error(`${operationId} has no server`);
    return String(server.url).replace(/\{([^}]+)\}/g, (_, n: string) => String(server.variables?.[n]?.default ?? `{${n}}`));
  };
  const preamble = [
    `import { createMerchantClient, createPlatformClient, unwrap } from '@payout-service/client';`,
    '',
    `const credentials = { clientId: process.env.CLIENT_ID!, clientSecret: process.env.CLIENT_SECRET! };`,
    `const authUrl = '${defaults('merchant', 'issueToken')}'; // {auth_url}`,
    `const baseUrl = '${defaults('merchant', 'createPayee')}'; // {base_url}`,
    `const platformUrl = '${defaults('platform', 'calculateFees')}'; // {sandbox_url}/payouts`,
    '',
  ].join('\n');
  return { client: `${preamble}\n${region(source, 'client')}`, receiver: receiverText(source) };
}

/** The client walk-through and the webhook receiver, from docs/guides/quickstart.ts, as HTML blocks. */
export async function renderClientCode(bundles: Record<Group, Node>): Promise<{ client: string; receiver: string }> {
  const { client, receiver } = await clientCodeTexts(bundles);
  return { client: pre(client, 'ts'), receiver: pre(receiver, 'ts') };
}
