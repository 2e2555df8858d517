// Open enumerations as the reference shows them. The contract writes a response enumeration that may grow as
// `anyOf: [<the known values>, OpenEnumValue]` (openapi/DECISIONS.md "Compatibility"), which `npm run generate`
// types as the known literals or any string. Redoc would show that as "PayoutState (string) or OpenEnumValue
// (string)" behind "Any of" tabs, hiding the values. In the documents given to Redoc (and published beside the
// pages), each such field is the closed enumeration itself, marked `x-extensible-enum` with its values (Zalando's
// convention) and described with the contract's own sentence that the enumeration is open. The contract in
// openapi/ and generated/ keeps the open form.
import { enumeration } from './compatibility.js';
import { deref, isReferenced, pointerOf, type Node } from '../contract/document.js';
import { sentenceContaining, type DocumentTransform } from './contract.js';

const isOpenMember = (doc: Node, member: Node) => deref(doc, member)?.['x-open-enum-value'] === true;

/** The contract's words for "new values may appear", from the open member's own description. */
function openNote(doc: Node): string {
  const member = Object.values<Node>(doc.components?.schemas ?? {}).find((s) => s['x-open-enum-value'] === true);
  return sentenceContaining(member?.description, /enumeration is open/);
}

/** An open enumeration node as its closed enumeration plus the marker and note; undefined for any other node. */
export function closedForm(doc: Node, node: Node): Node | undefined {
  if (!Array.isArray(node.anyOf) || !node.anyOf.some((m: Node) => isOpenMember(doc, m))) return undefined;
  const known = enumeration(doc, node);
  const others = (node.anyOf as Node[]).filter((m) => !isOpenMember(doc, m));
  const nullable = others.some((m) => deref(doc, m)?.type === 'null');
  // Anything but the known values, the open member and `null` would be lost here: fail rather than mislead.
  if (!known || others.length !== (nullable ? 2 : 1))
    throw new Error(`an open enumeration the reference cannot show as one: ${JSON.stringify(node).slice(0, 200)}`);
  const { anyOf: _members, ...own } = node;
  const values = deref(
    doc,
    others.find((m) => deref(doc, m)?.type !== 'null'),
  );
  const type = values.type ?? 'string';
  return {
    ...(known.name ? { title: known.name } : {}),
    type: nullable ? [type, 'null'] : type,
    enum: nullable ? [...known.values, null] : known.values,
    ...own,
    description: [known.description, openNote(doc)].filter(Boolean).join('\n\n'),
    'x-extensible-enum': known.values,
  };
}

/** The reference's transform: every open enumeration shown closed with its note; OpenEnumValue then goes. */
export const openEnumsTransform: DocumentTransform = {
  node(node, doc) {
    const closed = closedForm(doc, node);
    if (closed) return closed;
    // The components are walked after the paths and schemas that used the open member: drop it once unused.
    const schemas = node === doc.components ? (node.schemas as Node | undefined) : undefined;
    if (schemas) {
      for (const [name, s] of Object.entries<Node>(schemas))
        if (s['x-open-enum-value'] === true && !isReferenced(doc, pointerOf(['components', 'schemas', name]))) delete schemas[name];
    }
    return undefined;
  },
};
