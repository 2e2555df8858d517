// Each operation's own 404 example, made when the documents are bundled (bundle-documents.ts), so the reference and the
// mocks show what the service answers for that operation rather than one shared example. An operation that documents
// 404 refers to the shared response (openapi/shared/responses/NotFound.yaml: description, headers, schema and an
// example with the kind's type, title and status) and carries, beside its `x-problem-types`, the service's detail
// for its resource:
//
//   x-not-found:
//     detail: No payout po_01jd8x3k7m2n4p6q8r0s2t4v6w exists for this merchant.
//     description: Optional; where the operation's 404 has other causes, which and what they answer.
//     errors: Optional; the fields the service's 404 names ([{parameter: transferId, detail: unknown transfer}]).
//
// In the bundle, that operation's 404 becomes the shared response with its example's `detail` replaced, its
// `instance` the request path the service would echo (the group's base path, the operation's path with each path
// parameter at its documented example), and the description on the example; `x-not-found` is then dropped. The
// shared response stays among the components (its generated type is part of the client's, and removing it would
// break a consumer that names it). An operation without `x-not-found` keeps the shared response (lint-problem-types.ts
// reports it), as does a document of a git ref from before `x-not-found` (diff.ts).
import { basePathOf } from './route-table.js';
import { deref, isLocalRef, locate, operationsOf, type Node } from './document.js';

const media = 'application/problem+json';

type FieldError = { detail: string; parameter?: string; pointer?: string };
type NotFound = { detail: string; description?: string; errors?: FieldError[] };

const isFieldError = (e: unknown) =>
  e !== null &&
  typeof e === 'object' &&
  typeof (e as Node).detail === 'string' &&
  Object.keys(e).every((k) => k === 'detail' || ((k === 'parameter' || k === 'pointer') && typeof (e as Node)[k] === 'string'));

/** What an operation's `x-not-found` says, checked. */
function notFoundOf(op: Node, where: string): NotFound {
  const own: unknown = op['x-not-found'];
  const ok =
    own !== null &&
    typeof own === 'object' &&
    typeof (own as Node).detail === 'string' &&
    ((own as Node).description === undefined || typeof (own as Node).description === 'string') &&
    ((own as Node).errors === undefined || (Array.isArray((own as Node).errors) && (own as Node).errors.every(isFieldError))) &&
    Object.keys(own).every((k) => k === 'detail' || k === 'description' || k === 'errors');
  if (!ok)
    throw new Error(
      `${where}: x-not-found is \`{detail: <the service's detail>, description?: <its other causes>, errors?: <the fields it names>}\``,
    );
  return own as NotFound;
}

/** A path parameter's documented example: its own `example`, else its first `examples` entry, else its schema's. */
function pathExample(doc: Node, parameters: unknown[], name: string, where: string): string {
  // An operation's parameter overrides the path item's of the same name: the last one found wins.
  const p = parameters
    .map((raw) => deref(doc, raw) as Node | undefined)
    .filter((x) => x?.in === 'path' && x.name === name)
    .at(-1);
  const value = p?.example ?? deref(doc, Object.values<Node>(p?.examples ?? {})[0])?.value ?? deref(doc, p?.schema)?.example;
  if (value === undefined || value === null || typeof value === 'object')
    throw new Error(`${where}: path parameter ${name} has no example, which the instance of its 404 example needs`);
  return encodeURIComponent(String(value));
}

/** `doc` (a bundle) with each operation's 404 example made from its `x-not-found`, in place. */
export function withNotFoundExamples(doc: Node): Node {
  const base = basePathOf(doc);
  for (const { path, method, op, pathItem, pointer } of operationsOf(doc)) {
    const raw = op.responses?.['404'];
    if (op['x-not-found'] === undefined || !raw || !isLocalRef(raw.$ref)) continue;
    const where = op.operationId ?? `${method.toUpperCase()} ${path}`;
    const own = notFoundOf(op, where);
    const [response] = locate(doc, raw, `${pointer}/responses/404`);
    const content = response?.content?.[media];
    const [name, rawExample] = Object.entries<Node>(content?.examples ?? {})[0] ?? [];
    const { value, ...example } = (deref(doc, rawExample) as Node | undefined) ?? {};
    if (!name || !value) throw new Error(`${where}: its 404 response (${raw.$ref}) has no ${media} example to start from`);
    const parameters = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])];
    const atOrigin = Array.isArray(op.servers) && op.servers.length > 0;
    const instance =
      (atOrigin ? '' : base) + path.replace(/\{([^}]+)\}/g, (_, param: string) => pathExample(doc, parameters, param, where));
    op.responses['404'] = {
      ...response,
      content: {
        ...response.content,
        [media]: {
          ...content,
          examples: {
            [name]: {
              ...example,
              ...(own.description === undefined ? {} : { description: own.description }),
              value: { ...value, detail: own.detail, instance, ...(own.errors ? { errors: own.errors } : {}) },
            },
          },
        },
      },
    };
    delete op['x-not-found'];
  }
  return doc;
}
