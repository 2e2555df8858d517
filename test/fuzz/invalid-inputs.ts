// Invalid inputs for an operation: what a careless or hostile caller sends. Bodies: random JSON of any
// shape, a valid body with one property of the wrong type, without a required property, with an extra
// property, with a huge string, with deep nesting, with hostile unicode, with numbers at and past their
// bounds, with null in every place, or text that is not JSON at all. Parameters: ids and query values of
// every wrong kind, including raw percent-encodings and path tricks.
import fc from 'fast-check';
import type { Json } from '../support/contract.js';
import type { ServedOperation } from '../support/operations.js';

/** A request body as sent: JSON text (possibly not JSON at all) and its content type. */
export interface RawBody {
  kind: string;
  text: string;
  contentType: string;
}

const json = (kind: string, value: unknown): RawBody => ({ kind, text: JSON.stringify(value), contentType: 'application/json' });

const wrongTypes = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** Strings that break naive handling: control and bidi characters, lone surrogates, NUL, huge graphemes. */
const hostileStrings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\udfff\ud800',
    '\u202e\u202dreversed',
    'a\u0301\u0301\u0301\u0301',
    '\ufeffbom',
    '🙂'.repeat(50),
    "' OR 1=1 --",
    '%00',
    '../../etc/passwd',
    '${jndi:ldap://x}',
    '<script>alert(1)</script>',
    '\r\nX-Injected: 1',
  ),
);

const boundaryNumbers = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  0.1,
  0.001,
  1e-320,
  1.7976931348623157e308,
  -1.7976931348623157e308,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  9_999_999_999_999_999,
  123456789.123456789,
);

/** Nested arrays or objects, deeper than any schema allows. */
const deep = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** Text that is not the JSON the content type claims, or another content type altogether. */
const notJson = fc.oneof(
  fc.string({ maxLength: 50 }).map((text) => ({ kind: 'random text', text, contentType: 'application/json' })),
  fc.constantFrom(
    { kind: 'truncated', text: '{"a": [1, 2', contentType: 'application/json' },
    { kind: 'trailing comma', text: '{"a": 1,}', contentType: 'application/json' },
    { kind: 'comment', text: '{/* c */ "a": 1}', contentType: 'application/json' },
    { kind: 'BOM', text: '\ufeff{}', contentType: 'application/json' },
    { kind: 'NaN', text: '{"amount": NaN}', contentType: 'application/json' },
    { kind: 'duplicate keys', text: '{"merchantId": 1, "merchantId": 2}', contentType: 'application/json' },
    { kind: 'empty', text: '', contentType: 'application/json' },
    { kind: 'form', text: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { kind: 'plain text', text: 'hello', contentType: 'text/plain' },
    { kind: 'xml', text: '<a>1</a>', contentType: 'application/xml' },
    { kind: 'json with charset latin1', text: '{"a":"\u00e9"}', contentType: 'application/json; charset=latin1' },
    { kind: 'huge number', text: `{"amount": 1${'0'.repeat(400)}}`, contentType: 'application/json' },
  ),
);

/** Every invalid body kind, built around a valid seed body of the operation. */
export function invalidBody(o: ServedOperation, seeds: unknown[]): fc.Arbitrary<RawBody> {
  const seed = (seeds[0] ?? {}) as Json;
  const properties = Object.entries<Json>(o.bodySchema?.properties ?? {});
  const names = properties.map(([n]) => n);
  const required: string[] = o.bodySchema?.required ?? [];
  const strings = properties
    .filter(([, s]) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')))
    .map(([n, s]) => [n, (s.maxLength as number | undefined) ?? 100] as const);
  const numbers = properties
    .filter(([, s]) => ['integer', 'number'].some((t) => s.type === t || (Array.isArray(s.type) && s.type.includes(t))))
    .map(([n]) => n);
  const kinds: fc.Arbitrary<RawBody>[] = [
    fc.jsonValue({ maxDepth: 4 }).map((v) => json('random JSON', v)),
    fc.object({ maxDepth: 2 }).map((v) => json('random object', v)),
    notJson,
    fc
      .tuple(
        fc.string({ maxLength: 12 }).filter((k) => !names.includes(k) && k !== '__proto__'),
        wrongTypes,
      )
      .map(([k, v]) => json('extra property', { ...seed, [k]: v })),
    fc.constant(json('null everywhere', Object.fromEntries(names.map((n) => [n, null])))),
    fc.constant(json('null body', null)),
  ];
  if (names.length) {
    kinds.push(fc.tuple(fc.constantFrom(...names), wrongTypes).map(([k, v]) => json(`wrong type for ${k}`, { ...seed, [k]: v })));
    kinds.push(fc.tuple(fc.constantFrom(...names), deep).map(([k, v]) => json(`deep nesting in ${k}`, { ...seed, [k]: v })));
  }
  if (required.length)
    kinds.push(
      fc.constantFrom(...required).map((k) => json(`missing ${k}`, Object.fromEntries(Object.entries(seed).filter(([n]) => n !== k)))),
    );
  if (strings.length) {
    kinds.push(
      fc
        .tuple(fc.constantFrom(...strings), fc.integer({ min: 1, max: 200_000 }))
        .map(([[k, max], extra]) => json(`huge ${k}`, { ...seed, [k]: 'x'.repeat(max + extra) })),
    );
    kinds.push(fc.tuple(fc.constantFrom(...strings), hostileStrings).map(([[k], v]) => json(`unicode in ${k}`, { ...seed, [k]: v })));
  }
  if (numbers.length)
    kinds.push(fc.tuple(fc.constantFrom(...numbers), boundaryNumbers).map(([k, v]) => json(`bound ${v} for ${k}`, { ...seed, [k]: v })));
  return fc.oneof(...kinds);
}

/** Raw path segments: what an id in a path can be made to be. Inserted as they are, not re-encoded. */
const rawSegments = fc.oneof(
  fc.integer({ min: -1e12, max: 1e16 }).map(String),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom(
    '0',
    '-1',
    '1e3',
    '0x10',
    '1.5',
    '9007199254740993',
    '99999999999999999999',
    'null',
    'undefined',
    '%00',
    '%E0%A4%A',
    '%',
    '%2e%2e',
    '..%2f..%2fetc',
    'po_',
    `pa_${'z'.repeat(26)}`,
    '%F0%9F%99%82',
    '%20',
    'a'.repeat(300),
  ),
);

/** Values for the operation's parameters that are wrong in every way (path raw, query and header as strings). */
export function invalidParameters(o: ServedOperation): fc.Arbitrary<Record<string, string | undefined>> {
  const entries = o.parameters.map(
    (p) =>
      [
        p.name,
        p.in === 'path'
          ? rawSegments
          : fc.option(
              fc.oneof(
                rawSegments.map(decodeSafely),
                hostileStrings.map((s) => s.replace(/[\r\n]/g, '')),
              ),
              { nil: undefined },
            ),
      ] as const,
  );
  return fc.record(Object.fromEntries(entries)) as fc.Arbitrary<Record<string, string | undefined>>;
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Query parameters the operation does not document. */
export const unknownQuery = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 2 });
