// How `npm run generate` types the contract's conditional requirements. A request schema says "a BANK_ACCOUNT needs
// accountType" as JSON Schema's `if`/`then`, which openapi-typescript drops (it types the branch `unknown`), so the
// types would accept what the server refuses. Where the condition is one a type can state (a property of the same
// object equal to a `const` or one of an `enum`, and `then` requiring properties), the object's type becomes
//   <the object> & ({ d: V; <each required>: <its type, not null> } | { d?: <d's other values> })
// for each such `if`: a union the checker enforces, the wire unchanged (the bundled documents are not touched; only
// the copy the types are made from). Other conditions (patterns, nested or `contains` conditions, `then`s that only
// narrow a pattern) stay the server's to check.
//
// openapi-typescript calls its `transform` hook only for schemas with a `type`, so each typeable `if`/`then` is
// rewritten, in that copy, into an `allOf` member `{ type: object, x-conditional-required: ... }` that
// `conditionalType` then types.
import type { TransformNodeOptions } from 'openapi-typescript';
import { transformSchemaObject } from 'openapi-typescript';
import ts from 'typescript';
import { deref, rewrite, type Node } from './document.js';

const marker = 'x-conditional-required';

interface Condition {
  discriminator: string;
  values: unknown[];
  /** The discriminator's values the condition does not name. */
  otherValues: unknown[];
  discriminatorRequired: boolean;
  /** Each property `then` requires, with its schema (the object's, narrowed by `then`'s). */
  required: Record<string, Node>;
}

/** The condition an `if`/`then` states, when a type can state it. */
function conditionOf(doc: unknown, object: Node, branch: Node): Condition | undefined {
  const { if: when, then, else: otherwise } = branch;
  if (!when || !then || otherwise !== undefined || !Array.isArray(then.required) || then.required.length === 0) return undefined;
  const names = Object.keys(when.properties ?? {});
  if (names.length !== 1 || Object.keys(when).some((k) => k !== 'properties' && k !== 'required')) return undefined;
  const discriminator = names[0]!;
  if (JSON.stringify(when.required ?? []) !== JSON.stringify([discriminator])) return undefined;
  const test = when.properties[discriminator] as Node;
  const values = 'const' in test ? [test.const] : Array.isArray(test.enum) ? test.enum : undefined;
  if (!values || Object.keys(test).some((k) => !['const', 'enum', 'type'].includes(k))) return undefined;
  const own = deref(doc, object.properties?.[discriminator]) as Node | undefined;
  // Without a list of the discriminator's values, the other branch cannot be told apart: left untyped.
  if (!Array.isArray(own?.enum)) return undefined;
  const otherValues = own.enum.filter((v: unknown) => !values.includes(v));
  const required: Record<string, Node> = {};
  for (const name of then.required as string[]) {
    const schema = { ...(object.properties?.[name] ?? {}), ...(then.properties?.[name] ?? {}) };
    if (Object.keys(schema).length === 0) return undefined;
    required[name] = schema;
  }
  return {
    discriminator,
    values,
    otherValues,
    discriminatorRequired: (object.required ?? []).includes(discriminator),
    required,
  };
}

/** A copy of `doc` for openapi-typescript, each typeable `if`/`then` of an object a marked `allOf` member. */
export function withConditionalMarkers<T>(doc: T): T {
  const copy = structuredClone(doc);
  rewrite(copy, (node) => {
    if (Array.isArray(node) || !node.properties) return undefined;
    // The object itself when it carries an `if` (its own properties are read as the branch's), and its `allOf` members.
    const branches: Node[] = [];
    if (node.if) branches.push(node);
    for (const member of (node.allOf ?? []) as Node[]) if (member.if) branches.push(member);
    const marked = branches.flatMap((branch) => {
      const condition = conditionOf(copy, node, branch);
      return condition ? [{ branch, member: { type: 'object', [marker]: condition } }] : [];
    });
    if (marked.length === 0) return undefined;
    const rootBranch = marked.find((m) => m.branch === node);
    if (rootBranch) {
      delete node.if;
      delete node.then;
    }
    const replaced = new Map(marked.map((m) => [m.branch, m.member]));
    node.allOf = [...((node.allOf ?? []) as Node[]).map((m) => replaced.get(m) ?? m), ...(rootBranch ? [rootBranch.member] : [])];
    return node;
  });
  return copy;
}

const literal = (value: unknown): ts.TypeNode =>
  typeof value === 'number'
    ? ts.factory.createLiteralTypeNode(ts.factory.createNumericLiteral(value))
    : typeof value === 'boolean'
      ? ts.factory.createLiteralTypeNode(value ? ts.factory.createTrue() : ts.factory.createFalse())
      : ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(String(value)));
const union = (values: unknown[]): ts.TypeNode =>
  values.length === 0 ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword) : ts.factory.createUnionTypeNode(values.map(literal));
const property = (name: string, type: ts.TypeNode, optional = false) =>
  ts.factory.createPropertySignature(
    undefined,
    ts.factory.createStringLiteral(name),
    optional ? ts.factory.createToken(ts.SyntaxKind.QuestionToken) : undefined,
    type,
  );
const nonNull = (type: ts.TypeNode) => ts.factory.createTypeReferenceNode('NonNullable', [type]);

/** openapi-typescript's `transform` option for the marked members: the union above, undefined for every other. */
export function conditionalType(schema: Node, options: TransformNodeOptions): ts.TypeNode | undefined {
  const condition = schema[marker] as Condition | undefined;
  if (!condition) return undefined;
  const { discriminator, values, otherValues, discriminatorRequired, required } = condition;
  const when = ts.factory.createTypeLiteralNode([
    property(discriminator, union(values)),
    ...Object.entries(required)
      .filter(([name]) => name !== discriminator)
      .map(([name, s]) => property(name, nonNull(transformSchemaObject(s as never, options)))),
  ]);
  const otherwise = ts.factory.createTypeLiteralNode([property(discriminator, union(otherValues), !discriminatorRequired)]);
  return ts.factory.createParenthesizedType(ts.factory.createUnionTypeNode([when, otherwise]));
}
