// Requests built from the contract's own examples, and where to find what a response must look like: the
// mock suite sends these through the generated clients and checks the answers against the same bundle.
import type { Group } from '../../generated/index.js';
import { escapeToken, locate } from '../../scripts/contract/document.js';
import { bundles, resolve, type Json } from '../support/contract.js';

export interface OperationRef {
  group: Group;
  path: string;
  method: string;
  op: Json;
  pointer: string;
}

export interface ExampleRequest {
  params: { path: Record<string, unknown>; query: Record<string, unknown>; header: Record<string, string> };
  /** The first JSON request example, or undefined for an operation without a body. */
  body: unknown;
}

/** Follows $refs, returning the node and the JSON pointer it finally lives at. */
export const follow = (group: Group, node: any, pointer: string) => locate(bundles[group], node, pointer);

function firstExampleOf(group: Group, holder: any): { found: boolean; value?: unknown } {
  if (!holder) return { found: false };
  if ('example' in holder) return { found: true, value: holder.example };
  const first = Object.values<any>(holder.examples ?? {})[0];
  if (first !== undefined) return { found: true, value: follow(group, first, '')[0].value };
  return { found: false };
}

/** Parameters of the path item and of the operation (the operation's win), resolved. */
function parametersOf(ref: OperationRef): Json[] {
  const item = resolve(bundles[ref.group], bundles[ref.group].paths[ref.path]);
  const all = [...(item.parameters ?? []), ...(ref.op.parameters ?? [])].map((p: any) => follow(ref.group, p, '')[0] as Json);
  return [...new Map(all.map((p) => [`${p.in}:${p.name}`, p])).values()];
}

/** The valid request the contract documents: parameter examples and the first JSON body example. */
export function exampleRequest(ref: OperationRef): ExampleRequest {
  const params: ExampleRequest['params'] = { path: {}, query: {}, header: {} };
  for (const p of parametersOf(ref)) {
    let ex = firstExampleOf(ref.group, p);
    if (!ex.found) ex = firstExampleOf(ref.group, follow(ref.group, p.schema, '')[0]);
    if (!ex.found) {
      if (p.required) throw new Error(`${ref.method.toUpperCase()} ${ref.path}: required ${p.in} parameter ${p.name} has no example`);
      continue;
    }
    if (p.in === 'path') params.path[p.name] = ex.value;
    else if (p.in === 'query') params.query[p.name] = ex.value;
    else if (p.in === 'header') params.header[p.name] = String(ex.value);
  }
  let body: unknown;
  if (ref.op.requestBody) {
    const [rb] = follow(ref.group, ref.op.requestBody, '');
    const ex = firstExampleOf(ref.group, rb.content?.['application/json']);
    if (!ex.found && rb.required) throw new Error(`${ref.method.toUpperCase()} ${ref.path}: the JSON request body has no example`);
    body = ex.value;
  }
  return { params, body };
}

function requiredOf(group: Group, schemaNode: any): string[] {
  const [schema] = follow(group, schemaNode, '');
  if (!schema) return [];
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((s: any) => requiredOf(group, s))];
}

/**
 * The example body made invalid: its first required property removed, or, for a body whose fields are all
 * optional, an unknown property added (request objects are closed). Undefined for an operation without a body.
 */
export function invalidBody(ref: OperationRef, body: unknown): { body: Record<string, unknown>; change: string } | undefined {
  if (!ref.op.requestBody || typeof body !== 'object' || body === null) return undefined;
  const [rb] = follow(ref.group, ref.op.requestBody, '');
  const required = requiredOf(ref.group, rb.content?.['application/json']?.schema).filter((k) => k in body);
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const field = required[0];
  if (field !== undefined) {
    delete copy[field];
    return { body: copy, change: `without required ${field}` };
  }
  copy.unexpectedField = true;
  return { body: copy, change: 'with an unknown field' };
}

/** The success response Prism serves: the lowest 2xx (Prism's own rule in static mode). */
export function successStatus(ref: OperationRef): number {
  const codes = Object.keys(ref.op.responses ?? {})
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number)
    .sort((a, b) => a - b);
  const first = codes[0];
  if (first === undefined) throw new Error(`${ref.method.toUpperCase()} ${ref.path} documents no 2xx response`);
  return first;
}

export interface DocumentedResponse {
  /** JSON pointer of the response object (after $refs), e.g. `#/components/responses/Unauthorized`. */
  pointer: string;
  /** Media type → [pointer of its schema, first example if any]. */
  content: Map<string, { schemaPointer: string; example: { found: boolean; value?: unknown } }>;
}

/** The documented response for a status (or `default`), undefined when the operation does not document it. */
export function documentedResponse(ref: OperationRef, status: number): DocumentedResponse | undefined {
  const raw = ref.op.responses?.[String(status)] ?? ref.op.responses?.default;
  if (!raw) return undefined;
  const key = ref.op.responses?.[String(status)] ? String(status) : 'default';
  const [response, pointer] = follow(ref.group, raw, `${ref.pointer}/responses/${key}`);
  const content: DocumentedResponse['content'] = new Map();
  for (const [media, mt] of Object.entries<Json>(response.content ?? {})) {
    content.set(media, { schemaPointer: `${pointer}/content/${escapeToken(media)}/schema`, example: firstExampleOf(ref.group, mt) });
  }
  return { pointer, content };
}

/** True for an operation that needs a token (its own security, else the document's). */
export function isSecured(ref: OperationRef): boolean {
  return (ref.op.security ?? bundles[ref.group].security ?? []).length > 0;
}
