// The conventions of openapi/README.md that lint rules cannot express: request objects are closed, every
// success response carries the rate-limit, CORS and request-id headers, and every response Cache-Control.
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { bundles, operationsOf, resolve, type Json } from '../support/contract.js';

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

  it.each(ops.filter((o) => o.op.requestBody).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s: every request object is closed',
    (_, { op }) => {
      for (const media of Object.values<Json>(resolve(doc, op.requestBody).content)) {
        const open = objectSchemas(doc, media.schema).filter((s) => s.additionalProperties !== false);
        expect(open.map((s) => Object.keys(s.properties).join(','))).toEqual([]);
      }
    },
  );

  it.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s: success responses carry the common headers',
    (_, { op }) => {
      for (const [status, raw] of Object.entries<Json>(op.responses)) {
        if (!status.startsWith('2')) continue;
        const headers = Object.keys(resolve(doc, raw).headers ?? {});
        expect(headers).toEqual(
          expect.arrayContaining([
            'X-Request-Id',
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
            'Access-Control-Allow-Origin',
          ]),
        );
      }
    },
  );

  const named = ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const);
  it.each(named)('%s: every response forbids caching (Cache-Control: no-store)', (_, { op }) => {
    for (const [status, raw] of Object.entries<Json>(op.responses)) {
      const header = resolve(doc, resolve(doc, raw).headers?.['Cache-Control']);
      expect(resolve(doc, header?.schema)?.const, status).toBe('no-store');
    }
  });

  it.each(ops.filter((o) => o.op.requestBody).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s: documents 413 and 415',
    (_, { op }) => {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['413', '415']));
    },
  );

  it('lets every query parameter carry reserved characters unencoded (`+` for a space, `*`, `,`)', () => {
    const query = ops.flatMap(({ op }) => (op.parameters ?? []).map((p: Json) => resolve(doc, p)).filter((p: Json) => p.in === 'query'));
    expect(query.filter((p: Json) => p.allowReserved !== true).map((p: Json) => p.name)).toEqual([]);
  });
});
