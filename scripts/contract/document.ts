// The one walker of the contract's documents. Every script (and the tests' helpers) reads a bundled document
// (generated/<group>/openapi.json, or a bundle of a git ref) through these functions: resolve a `$ref`, follow a
// node's `$ref`s, walk or rewrite every node with its JSON pointer, list the operations in their path items.
// Only local references (`#/...`) are followed: every script works on bundles (Redocly has inlined the files),
// and a reference to another file is left as it is rather than guessed at.
export type Node = Record<string, any>;

/** The methods of a path item, in OpenAPI's order (an operation list comes out in this order). */
export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** One reference token of a JSON pointer as written (RFC 6901: `~` is `~0`, `/` is `~1`). */
export const escapeToken = (token: string | number): string => String(token).replace(/~/g, '~0').replace(/\//g, '~1');
export const unescapeToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The URI-fragment pointer (`#/paths/~1v1~1payees/get`) of a list of keys. */
export const pointerOf = (keys: readonly (string | number)[]): string => `#${keys.map((k) => `/${escapeToken(k)}`).join('')}`;

/** The keys a local pointer names: `#/a/b~1c` (or `/a/b~1c`) → `['a', 'b/c']`; percent-escapes of a fragment decoded. */
export function keysOf(pointer: string): string[] {
  const path = pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return path.slice(1).split('/').map(unescapeToken);
}

/** Whether a `$ref` points into the same document. */
export const isLocalRef = (ref: unknown): ref is string => typeof ref === 'string' && ref.startsWith('#');

/** The node a local pointer names in `doc`, or undefined when there is none. */
export function resolveRef(doc: unknown, ref: string): any {
  return keysOf(ref).reduce((o: any, k) => (o !== null && typeof o === 'object' ? o[k] : undefined), doc);
}

// A bundle has short chains; a longer one is a cycle, which ends where it is rather than looping forever.
const maxHops = 32;

/** The node itself, or what its local `$ref` names, through chains of them. A non-local `$ref` is left as it is. */
export function deref(doc: unknown, node: any): any {
  let n = node;
  for (let hops = 0; n && typeof n === 'object' && isLocalRef(n.$ref) && hops < maxHops; hops += 1) n = resolveRef(doc, n.$ref);
  return n;
}

/** Where a node really lives: what its local `$ref`s name, and that node's pointer (`pointer` when it has no `$ref`). */
export function locate(doc: unknown, node: any, pointer: string): [node: any, pointer: string] {
  let [n, at] = [node, pointer];
  for (let hops = 0; n && typeof n === 'object' && isLocalRef(n.$ref) && hops < maxHops; hops += 1)
    [n, at] = [resolveRef(doc, n.$ref), n.$ref];
  return [n, at];
}

/** Sees every node under `root` (objects, arrays and values), parents first, with its keys from `root`. Return
 * `false` from `visit` to skip a node's children. `$ref`s are not followed: each node is seen where it is written. */
export function walk(root: unknown, visit: (node: unknown, keys: readonly string[]) => unknown): void {
  const go = (node: unknown, keys: string[]) => {
    if (visit(node, keys) === false || !node || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) go(child, [...keys, key]);
  };
  go(root, []);
}

/** `root` rewritten in place, children first: `replace` sees every object and array node (after its children) with
 * its keys and may return a node to put in its place. `before` sees each object node before its children. */
export function rewrite(
  root: unknown,
  replace: (node: Node, keys: readonly string[]) => unknown,
  before?: (node: Node, keys: readonly string[]) => void,
): unknown {
  const go = (node: unknown, keys: string[]): unknown => {
    if (Array.isArray(node)) return node.map((child, i) => go(child, [...keys, String(i)]));
    if (!node || typeof node !== 'object') return node;
    const object = node as Node;
    before?.(object, keys);
    for (const key of Object.keys(object)) object[key] = go(object[key], [...keys, key]);
    return replace(object, keys) ?? object;
  };
  return go(root, []);
}

/** An operation in its place: its path (or webhook name), method, path item (where shared parameters and servers
 * are) and pointer. */
export interface PlacedOperation {
  path: string;
  method: HttpMethod;
  op: Node;
  pathItem: Node;
  /** `#/paths/<path>/<method>` (or `#/webhooks/...`), as written in the document. */
  pointer: string;
}

/** The operations of one path item (as it is: a `$ref` is not followed here), in method order. */
export function operationsIn(pathItem: Node, path: string, of: 'paths' | 'webhooks' = 'paths'): PlacedOperation[] {
  return httpMethods
    .filter((method) => pathItem[method])
    .map((method) => ({ path, method, op: pathItem[method] as Node, pathItem, pointer: pointerOf([of, path, method]) }));
}

/** The operations of a document's `paths` (or `webhooks`), path items' `$ref`s followed, in document and method order. */
export function operationsOf(doc: Node, of: 'paths' | 'webhooks' = 'paths'): PlacedOperation[] {
  return Object.entries<Node>(doc[of] ?? {}).flatMap(([path, raw]) => operationsIn(deref(doc, raw) ?? {}, path, of));
}

/** Every operation of several documents (one per group), each with its group. */
export function operationsOfGroups<G extends string>(docs: Record<G, Node> | Map<G, Node>): (PlacedOperation & { group: G })[] {
  const entries = docs instanceof Map ? [...docs] : (Object.entries(docs) as [G, Node][]);
  return entries.flatMap(([group, doc]) => operationsOf(doc).map((o) => ({ ...o, group })));
}

/** Whether any `$ref` under `root` names `pointer` (a component still in use). */
export function isReferenced(root: unknown, pointer: string): boolean {
  let found = false;
  walk(root, (node) => {
    if (found) return false;
    if (node && typeof node === 'object' && (node as Node).$ref === pointer) found = true;
  });
  return found;
}
