// How `npm run generate` types open enumerations (openapi/DECISIONS.md "Compatibility"). A response enumeration
// that may grow is written `anyOf: [<the known values>, OpenEnumValue]`; OpenEnumValue (`x-open-enum-value`) is
// typed `(string & {})`, so the union keeps its known literals for narrowing and completion while any other string
// still compiles. The problem `type` is open by nature (any URI); its known values are the catalogue it carries
// (`x-problem-type-base` + each kind of `x-problem-types`), typed the same way.
import ts from 'typescript';

type Schema = Record<string, unknown>;

/** `(string & {})`: a string TypeScript does not reduce into the literals beside it. */
const laterValue = (): ts.TypeNode =>
  ts.factory.createParenthesizedType(
    ts.factory.createIntersectionTypeNode([
      ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
      ts.factory.createTypeLiteralNode([]),
    ]),
  );

function problemTypeUris(schema: Schema): string[] | undefined {
  const base = schema['x-problem-type-base'];
  const kinds = schema['x-problem-types'];
  if (typeof base !== 'string' || !kinds || typeof kinds !== 'object' || Array.isArray(kinds)) return undefined;
  return Object.keys(kinds).map((kind) => base + kind);
}

/** openapi-typescript's `transform` option: a type for the schemas above, undefined for every other. */
export function openEnumType(schema: Schema): ts.TypeNode | undefined {
  if (schema['x-open-enum-value'] === true) return laterValue();
  const uris = problemTypeUris(schema);
  if (!uris) return undefined;
  return ts.factory.createUnionTypeNode([
    ...uris.map((uri) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(uri))),
    laterValue(),
  ]);
}
