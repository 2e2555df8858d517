// Read-only access to the bundled documents for the docs builder: the landing page takes its servers,
// examples, limits and events from here, so it cannot drift from the reference pages built from the same files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { groups, type Group } from '../../generated/index.js';

import { deref, operationsIn, operationsOf, rewrite, type Node, type PlacedOperation } from '../contract/document.js';

// The bundles are plain JSON; the builder reads them loosely and fails loudly when a fact it needs is missing.
export type { Node, PlacedOperation };

/** The origin `npm start` serves every group on by default (test/docs/code-samples.test.ts holds it to the server's port). */
export const localOrigin = 'http://localhost:3000';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const bundlePath = (group: Group) => `${repoRoot}generated/${group}/openapi.json`;

export function loadBundles(): Record<Group, Node> {
  return Object.fromEntries(groups.map((g) => [g, JSON.parse(readFileSync(bundlePath(g), 'utf8')) as Node])) as Record<Group, Node>;
}

export function operationById(doc: Node, operationId: string): PlacedOperation {
  const found = operationsOf(doc).find((o) => o.op.operationId === operationId);
  if (!found) throw new Error(`the contract has no operation ${operationId}`);
  return found;
}

function firstExample(doc: Node, holder: Node | undefined): unknown {
  if (!holder) return undefined;
  if ('example' in holder) return holder.example;
  const first = Object.values<Node>(holder.examples ?? {})[0];
  return first === undefined ? undefined : deref(doc, first).value;
}

/** The first JSON request example of an operation (throws when there is none: the docs show real bodies only). */
export function requestExample(doc: Node, o: PlacedOperation): unknown {
  const example = firstExample(doc, deref(doc, o.op.requestBody)?.content?.['application/json']);
  if (example === undefined) throw new Error(`${o.op.operationId} has no JSON request example`);
  return example;
}

/** The schema of a component by name, with $refs followed. */
export function schema(doc: Node, name: string): Node {
  const found = doc.components?.schemas?.[name];
  if (!found) throw new Error(`the contract has no schema ${name}`);
  return deref(doc, found);
}

/** A property of a component schema, $refs followed and its own annotations (description) kept on top. */
export function property(doc: Node, schemaName: string, prop: string): Node {
  const raw = schema(doc, schemaName).properties?.[prop];
  if (!raw) throw new Error(`schema ${schemaName} has no property ${prop}`);
  const { $ref: _ref, ...own } = raw as Node;
  return { ...deref(doc, raw), ...own };
}

/** A sentence of a description that states a limit, so the page quotes the contract rather than restating it. */
export function sentenceContaining(text: string | undefined, needle: RegExp): string {
  const sentence = (text ?? '').split(/(?<=\.)\s+/).find((s) => needle.test(s));
  if (!sentence) throw new Error(`the contract no longer says ${needle}`);
  return sentence;
}

/**
 * One change the reference makes to a bundled document (reference.ts applies them all in one walk):
 * `operation` sees each operation of `paths` before its nodes are walked; `node` sees every object node, its
 * children first, and may return a node to put in its place.
 */
export interface DocumentTransform {
  operation?(o: PlacedOperation, doc: Node): void;
  node?(node: Node, doc: Node): Node | undefined;
}

/** A copy of `source` with every transform applied in a single walk over it (the source is left as it is). */
export function transformDocument(source: Node, transforms: DocumentTransform[]): Node {
  const doc = structuredClone(source) as Node;
  return rewrite(
    doc,
    (node) => transforms.reduce((out, t) => t.node?.(out, doc) ?? out, node),
    (node, keys) => {
      if (keys.length !== 2 || keys[0] !== 'paths') return;
      for (const o of operationsIn(node, keys[1]!)) for (const t of transforms) t.operation?.(o, doc);
    },
  ) as Node;
}
