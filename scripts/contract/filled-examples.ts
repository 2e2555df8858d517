// Examples that stay whole when a schema grows. A request or response example in the hand-written documents may
// leave out a required property whose schema shows an `example` of its own (directly, or through its `$ref`): when
// the documents are bundled (bundle-documents.ts), each such property is added to the example with that value, in
// the schema's property order, at any depth the schema describes (objects, array items, `allOf`, and the one object
// branch of a `oneOf`/`anyOf`, or the branch a discriminator names). So a new required field with an `example`
// reaches every example of every operation, webhook and event that carries its schema, from one edit, and what the
// reference, the mocks and the validators see is the complete example.
//
// An example that states a property keeps its own value, and a property without a schema example is never made up:
// the lint (lint-contract.ts, over the filled bundles) still refuses an example that lacks it.
import { deref, walk, type Node } from './document.js';

const isObject = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The example a schema shows for itself: its `example`, or the first of its `examples`. */
function ownExample(doc: Node, schema: unknown): unknown {
  const s = deref(doc, schema);
  if (!isObject(s)) return undefined;
  if ('example' in s) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  // A property written as `$ref` plus siblings, or as `allOf: [$ref]`, shows its target's example.
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return ownExample(doc, s.allOf[0]);
  return undefined;
}

/** The branch of a `oneOf`/`anyOf` an object value belongs to: the discriminator's, or the only object branch. */
function branchOf(doc: Node, schema: Node, value: Node): Node | undefined {
  const branches = ((schema.oneOf ?? schema.anyOf) as unknown[]).map((b) => deref(doc, b) as Node);
  const name = schema.discriminator?.propertyName;
  if (typeof name === 'string') {
    const tag = value[name];
    const mapped = schema.discriminator.mapping?.[tag];
    if (typeof mapped === 'string') return deref(doc, { $ref: mapped });
    return branches.find((b) => {
      const p = deref(doc, b.properties?.[name]);
      return isObject(p) && (p.const === tag || (Array.isArray(p.enum) && p.enum.includes(tag)));
    });
  }
  const objects = branches.filter((b) => isObject(b) && (b.type === 'object' || isObject(b.properties) || Array.isArray(b.allOf)));
  return objects.length === 1 ? objects[0] : undefined;
}

/** Adds to `value` every required property its schema can show an example for; returns how many it added. */
function fill(doc: Node, schema: unknown, value: unknown): number {
  const s = deref(doc, schema);
  if (!isObject(s)) return 0;
  let added = 0;
  for (const part of (s.allOf ?? []) as unknown[]) added += fill(doc, part, value);
  if (Array.isArray(value)) {
    if (s.items) for (const item of value) added += fill(doc, s.items, item);
    return added;
  }
  if (!isObject(value)) return added;
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const branch = branchOf(doc, s, value);
    if (branch) added += fill(doc, branch, value);
  }
  const properties = isObject(s.properties) ? s.properties : {};
  const missing = ((s.required ?? []) as string[]).filter((name) => !(name in value) && name in properties);
  const shown = missing.flatMap((name) => {
    const example = ownExample(doc, properties[name]);
    return example === undefined ? [] : [[name, structuredClone(example)] as const];
  });
  if (shown.length > 0) {
    // Rebuilt in the schema's property order, then any others the example has, as a reader expects them.
    const entries = new Map<string, unknown>([...Object.entries(value), ...shown]);
    for (const key of Object.keys(value)) delete value[key];
    for (const key of [...Object.keys(properties), ...entries.keys()])
      if (entries.has(key) && !(key in value)) value[key] = entries.get(key);
    added += shown.length;
  }
  for (const [key, property] of Object.entries(properties)) if (key in value) added += fill(doc, property, value[key]);
  return added;
}

/** The document with every media type's examples filled (in place); how many properties were added. */
export function fillExamples(doc: Node): number {
  let added = 0;
  const seen = new Set<unknown>();
  walk(doc, (node, keys) => {
    // A media type object: `content` → `<media type>` → { schema, example | examples }.
    if (keys[keys.length - 2] !== 'content' || !isObject(node) || !node.schema) return;
    if ('example' in node) added += fill(doc, node.schema, node.example);
    for (const example of Object.values<unknown>(isObject(node.examples) ? node.examples : {})) {
      // An example in components is filled once, by the first media type that refers to it.
      const target = deref(doc, example);
      if (!isObject(target) || !('value' in target) || seen.has(target)) continue;
      seen.add(target);
      added += fill(doc, node.schema, target.value);
    }
  });
  return added;
}
