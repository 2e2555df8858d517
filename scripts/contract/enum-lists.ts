// The source of generated/<group>/enums.ts: the values of every named string enumeration of the document's
// `components.schemas`, each a readonly array under the schema's name, typed by the group's generated types (its
// values must be the schema type's), so that a list of event types, states or statuses is written once, in the
// contract, and the service, the client and the console import it. An open enumeration (`anyOf: [<the known values>,
// OpenEnumValue]`, open-enum-types.ts) is typed to admit any string; its list holds the documented values alone.
// And generated/<group>/from-states.ts: the states each operation that acts on a resource's state takes it from (the
// operation's `x-from-states: {schema: <a named enumeration>, states: [...]}`; in any other state it answers 409), so
// the service's rule and the console's offer are the contract's one list.
import { deref, operationsOf, type Node } from './document.js';

/** `OpenEnumValue`, the open member of an open enumeration (itself or through its `$ref`). */
const isOpenMember = (doc: unknown, node: unknown): boolean => deref(doc, node)?.['x-open-enum-value'] === true;

/** The values of a closed string enumeration (itself or through its `$ref`), or undefined for any other schema. */
function closedValues(doc: unknown, node: unknown): string[] | undefined {
  const schema: Node | undefined = deref(doc, node);
  if (!schema || typeof schema !== 'object' || !Array.isArray(schema.enum)) return undefined;
  if (schema.type !== undefined && schema.type !== 'string') return undefined;
  return schema.enum.every((v: unknown) => typeof v === 'string') ? schema.enum : undefined;
}

/** A schema's documented values when it is a string enumeration, closed or open; undefined for any other schema. */
export function enumValues(doc: unknown, schema: unknown): { values: string[]; open: boolean } | undefined {
  const closed = closedValues(doc, schema);
  if (closed) return { values: closed, open: false };
  const node: Node | undefined = deref(doc, schema);
  const members: unknown = node?.anyOf ?? node?.oneOf;
  if (!Array.isArray(members)) return undefined;
  const known = members.filter((m) => !isOpenMember(doc, m));
  if (known.length !== 1 || known.length === members.length) return undefined;
  const values = closedValues(doc, known[0]);
  return values ? { values, open: true } : undefined;
}

/** Every named string enumeration of `components.schemas`, in the document's order. */
export function enumLists(doc: Node): { name: string; values: string[]; open: boolean }[] {
  const schemas: Record<string, unknown> = doc.components?.schemas ?? {};
  return Object.entries(schemas).flatMap(([name, schema]) => {
    const found = enumValues(doc, schema);
    return found ? [{ name, ...found }] : [];
  });
}

/** generated/<group>/enums.ts. */
export function enumListsSource(doc: Node, stamp: string): string {
  const lists = enumLists(doc);
  for (const { name } of lists)
    if (!/^[A-Za-z_$][\w$]*$/.test(name) || name === 'components') throw new Error(`the enumeration ${name} cannot be named in TypeScript`);
  if (lists.length === 0) return `// ${stamp}\n\n// The document names no string enumeration.\nexport {};\n`;
  const declarations = lists.map(({ name, values, open }) => {
    const doc = open
      ? `/** The documented values of \`${name}\`, an open enumeration: its type admits any other string too. */`
      : `/** The values of \`${name}\`. */`;
    const list = values.map((v) => JSON.stringify(v)).join(', ');
    return `${doc}\nexport const ${name} = [${list}] as const satisfies readonly components["schemas"][${JSON.stringify(name)}][];`;
  });
  return `// ${stamp}

import type { components } from './schema.js';

${declarations.join('\n\n')}
`;
}

/** generated/<group>/from-states.ts. */
export function fromStatesSource(doc: Node, stamp: string): string {
  const lists = enumLists(doc);
  const acting = operationsOf(doc).flatMap(({ op }) => {
    const own = op['x-from-states'];
    if (own === undefined) return [];
    const named = lists.find((l) => l.name === own?.schema);
    if (!named || !Array.isArray(own.states) || own.states.some((v: unknown) => !named.values.includes(v as string)))
      throw new Error(`${op.operationId}: x-from-states is {schema: <a named string enumeration>, states: [<its values>]}`);
    return [{ operationId: String(op.operationId), schema: named.name, states: own.states as string[] }];
  });
  const entries = acting.map(
    ({ operationId, schema, states }) =>
      `  ${operationId}: [${states.map((v) => JSON.stringify(v)).join(', ')}] as const satisfies readonly components["schemas"][${JSON.stringify(schema)}][],`,
  );
  return `// ${stamp}

${acting.length > 0 ? "import type { components } from './schema.js';\n\n" : ''}/** The states each operation acts on (its \`x-from-states\`); in any other state it answers 409. */
export const fromStates = {${entries.length > 0 ? `\n${entries.join('\n')}\n` : ''}} as const;
`;
}
