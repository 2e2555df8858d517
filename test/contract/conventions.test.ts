// The conventions of openapi/README.md that lint rules cannot express: request objects are closed, and
// every success response carries the rate-limit, CORS and request-id headers.
import { describe, expect, it } from 'vitest';
import { groups } from '../../scripts/groups.js';
import { bundles, operationsOf, resolve, type Json } from './bundles.js';

/** Every object schema reachable from `schema` (through $refs, properties, items and combinators). */
function objectSchemas(doc: Json, schema: unknown, seen = new Set<unknown>()): Json[] {
  const node = resolve(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return [];
  seen.add(node);
  const out: Json[] = node.properties ? [node] : [];
  const children = [
    ...Object.values(node.properties ?? {}),
    node.items,
    ...(node.allOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.anyOf ?? []),
  ];
  for (const child of children) if (child) out.push(...objectSchemas(doc, child, seen));
  return out;
}

describe.each(groups)('%s conventions', (group) => {
  const doc = bundles[group];
  const ops = operationsOf(group);

  it.each(ops.filter((o) => o.op.requestBody).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s: every request object is closed', (_, { op }) => {
    for (const media of Object.values<Json>(resolve(doc, op.requestBody).content)) {
      const open = objectSchemas(doc, media.schema).filter((s) => s.additionalProperties !== false);
      expect(open.map((s) => Object.keys(s.properties).join(','))).toEqual([]);
    }
  });

  it.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s: success responses carry the common headers', (_, { op }) => {
    for (const [status, raw] of Object.entries<Json>(op.responses)) {
      if (!status.startsWith('2')) continue;
      const headers = Object.keys(resolve(doc, raw).headers ?? {});
      expect(headers).toEqual(expect.arrayContaining(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Access-Control-Allow-Origin']));
    }
  });
});
