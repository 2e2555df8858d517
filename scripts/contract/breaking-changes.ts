// Compares two bundled OpenAPI 3.1 documents with api-smart-diff and classifies each change as breaking,
// non-breaking, annotation, deprecated or unclassified, from the client's side: a request that gets
// stricter or a response that loses something breaks clients; the reverse does not. Open responses and open
// enumerations are classified by the contract's policy (compatibility-policy.ts).
import { apiDiff, type Diff } from 'api-smart-diff';
import { deref as follow, httpMethods, operationsOf, type Node as Document } from './document.js';
import { applyPolicy } from './compatibility-policy.js';

export type ChangeType = Diff['type'];

export interface Change {
  type: ChangeType;
  action: Diff['action'];
  /** `POST`, `WEBHOOK` for a webhook payload, `*` for a whole path item, `-` outside the paths. */
  method: string;
  /** The path (or webhook name); `-` outside the paths. */
  path: string;
  /** Where in the operation (or the document) it changed. */
  location: string;
  description: string;
}

export interface Comparison {
  counts: Record<ChangeType, number>;
  changes: Change[];
}

const isMethod = (key: string) => (httpMethods as readonly string[]).includes(key);
const webhookPrefix = 'webhook ';

/**
 * api-smart-diff knows `paths` but not 3.1's `webhooks`. A webhook's payload is read by the merchant's
 * receiver exactly as a response is read by a client (losing a field breaks it, adding one does not), so
 * each webhook operation is compared as a path `webhook <name>` whose one response, `payload`, is the
 * request body with the headers we send. (What the receiver answers is not part of the comparison.)
 */
function webhooksAsPaths(source: Document): Document {
  const doc = structuredClone(source);
  const asPaths: Record<string, Record<string, unknown>> = {};
  for (const { path: name, method, op } of operationsOf(doc, 'webhooks')) {
    const body = follow(doc, op.requestBody) ?? {};
    const headers = Object.fromEntries(
      (op.parameters ?? [])
        .map((p: any) => follow(doc, p))
        .filter((p: any) => p?.in === 'header')
        .map((p: any) => [p.name, { required: p.required ?? false, schema: p.schema, description: p.description }]),
    );
    const { requestBody: _body, parameters: _parameters, responses: _responses, ...rest } = op;
    asPaths[`${webhookPrefix}${name}`] ??= {};
    asPaths[`${webhookPrefix}${name}`]![method] = {
      ...rest,
      responses: { payload: { description: body.description ?? name, headers, content: body.content ?? {} } },
    };
  }
  doc.paths = { ...doc.paths, ...asPaths };
  delete doc.webhooks;
  return doc;
}

// Changes inside these components are reported again, classified in context, at every operation that
// uses them (a schema removed from a response breaks; from a request it does not): only those count.
const reportedAtUse = new Set(['schemas', 'responses', 'parameters', 'requestBodies', 'headers', 'examples']);

/** The readable form of a path inside a schema: `data[].Description`, `required: Purpose`. */
function schemaLocation(steps: (string | number)[], diff: Diff): string {
  const parts: string[] = [];
  for (let i = 0; i < steps.length; i += 1) {
    const step = steps[i]!;
    const next = steps[i + 1];
    if (step === 'properties' && next !== undefined) {
      parts.push(parts.length && !parts.at(-1)!.endsWith('[]') ? `.${next}` : String(next));
      i += 1;
    } else if (step === 'items') parts.push('[]');
    else if (step === 'required' && next !== undefined && i + 2 === steps.length) {
      parts.push(`${parts.length ? ' ' : ''}required: ${String(diff.after ?? diff.before)}`);
      i += 1;
    } else
      parts.push(`${parts.length ? ' ' : ''}${String(step)}${next !== undefined && typeof next === 'number' ? `[${steps[++i]}]` : ''}`);
  }
  return parts
    .join('')
    .replace(/\.?\[\]/g, '[]')
    .trim();
}

function operationLocation(doc: Document, route: string, method: string, rest: (string | number)[], diff: Diff): string {
  if (rest.length === 0) return 'operation';
  const schemaAt = rest.indexOf('schema');
  const prefix = schemaAt >= 0 ? rest.slice(0, schemaAt) : rest;
  const inSchema = schemaAt >= 0 ? schemaLocation(rest.slice(schemaAt + 1), diff) : '';
  const [head, second, third, fourth] = prefix;
  let where = prefix.join('/');
  let used = prefix.length;
  if (head === 'requestBody') {
    [where, used] = third !== undefined ? [`request body (${third})`, 3] : ['request body', 1];
  } else if (head === 'responses' && second !== undefined) {
    const response = second === 'payload' ? 'payload' : `response ${second}`;
    [where, used] =
      (third === 'content' || third === 'headers') && fourth !== undefined
        ? [third === 'content' ? `${response} (${fourth})` : `${response} header ${fourth}`, 4]
        : [response, 2];
  } else if (head === 'parameters' && typeof second === 'number') {
    const parameter = follow(doc, doc.paths?.[route]?.[method]?.parameters?.[second] ?? doc.paths?.[route]?.parameters?.[second]);
    if (parameter) [where, used] = [`${parameter.in} parameter ${parameter.name}`, 2];
  }
  const remainder = used < prefix.length ? ` ${prefix.slice(used).join('/')}` : '';
  return `${where}${remainder}${inSchema ? ` › ${inSchema}` : ''}`;
}

const past: Record<Diff['action'], string> = { add: 'Added', remove: 'Removed', replace: 'Replaced', rename: 'Renamed' };

function toChange(diff: Diff, before: Document, after: Document): Change {
  const [section, route, method, ...rest] = diff.path as (string | number)[];
  const doc = diff.action === 'remove' ? before : after;
  let located: Pick<Change, 'method' | 'path' | 'location'>;
  if (section !== 'paths' || route === undefined) {
    located = { method: '-', path: '-', location: diff.path.join('/') || 'document' };
  } else {
    const name = String(route);
    const isWebhook = name.startsWith(webhookPrefix);
    const path = isWebhook ? name.slice(webhookPrefix.length) : name;
    located =
      method === undefined || !isMethod(String(method))
        ? { method: '*', path, location: [method, ...rest].filter((s) => s !== undefined).join('/') || 'path' }
        : {
            method: isWebhook ? 'WEBHOOK' : String(method).toUpperCase(),
            path,
            location: operationLocation(doc, name, String(method), rest, diff),
          };
  }
  // api-smart-diff leaves some descriptions empty (or starting with a blank where it lacked a name).
  const description = diff.description && !/^\s/.test(diff.description) ? diff.description : `[${past[diff.action]}] ${located.location}`;
  return { type: diff.type, action: diff.action, ...located, description };
}

export function compareDocuments(before: Document, after: Document): Comparison {
  const b = webhooksAsPaths(before);
  const a = webhooksAsPaths(after);
  // api-smart-diff rewrites the documents it is given (siblings of an `anyOf` move into each member): the policy
  // reads the documents as written.
  const diffs = apiDiff(structuredClone(b), structuredClone(a))
    .filter((d) => !(d.path[0] === 'components' && reportedAtUse.has(String(d.path[1]))))
    // api-smart-diff marks an `examples` entry added or removed as an annotation but leaves a change inside
    // one unclassified, or reads an example's own `type` field as a schema's and calls its change breaking: an
    // example is documentation all the same, whatever it holds. So is the document's list of tags (how the
    // reference groups its operations), and the problem catalogue (`x-problem-types`: problem types are open,
    // so a kind added or listed on an operation asks nothing of a client that handles a kind by its status).
    .map((d) =>
      d.path.some((k) => k === 'examples' || k === 'example') ||
      (d.type === 'unclassified' && (d.path[0] === 'tags' || d.path.some((k) => String(k).startsWith('x-problem-type'))))
        ? { ...d, type: 'annotation' as const }
        : d,
    )
    .map((d) => applyPolicy(d, b, a));
  const counts: Record<ChangeType, number> = { breaking: 0, 'non-breaking': 0, annotation: 0, deprecated: 0, unclassified: 0 };
  for (const d of diffs) counts[d.type] += 1;
  return { counts, changes: diffs.map((d) => toChange(d, b, a)) };
}
