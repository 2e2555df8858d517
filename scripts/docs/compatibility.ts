// The compatibility guide's facts, read from the contract: which response fields are open enumerations
// (`anyOf: [<the known values>, OpenEnumValue]`, openapi/DECISIONS.md "Compatibility") and their known values.
import { deref, keysOf, type Node } from '../contract/document.js';
import { escapeHtml } from './markdown.js';
import { groups, type Group } from '../../generated/index.js';

const code = (s: unknown) => `<code>${escapeHtml(String(s))}</code>`;

export interface Enumeration {
  /** The component that lists the known values, when they are one. */
  name?: string;
  values: unknown[];
  open: boolean;
  /** The field's own description, else the known values' one. */
  description?: string;
}

/** The known values of a schema that is an enumeration, and whether it is open; undefined for any other schema. */
export function enumeration(doc: Node, schema: Node | undefined): Enumeration | undefined {
  const s = deref(doc, schema);
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return { values: s.enum, open: false, description: s.description };
  const members: Node[] = s.anyOf ?? [];
  const open = members.some((m) => deref(doc, m)?.['x-open-enum-value'] === true);
  const known = members.find((m) => deref(doc, m)?.['x-open-enum-value'] !== true && Array.isArray(deref(doc, m)?.enum));
  if (!open || !known) return undefined;
  const values = deref(doc, known);
  return {
    name: known.$ref === undefined ? undefined : keysOf(known.$ref).at(-1),
    values: values.enum,
    open,
    description: s.description ?? values.description,
  };
}

/** A table cell for an enumeration: its values, and "or a later value" when it is open. */
export function enumerationCell(e: Enumeration): string {
  const values = e.values.map((v) => code(v === null ? 'null' : v)).join(' ');
  return e.open ? `${values} <span class="meta">or a later value</span>` : values;
}

/** Every open enumeration of every group's schemas, once per enumeration, with the fields that carry it. */
export function renderOpenEnumerations(bundles: Record<Group, Node>): { count: number; table: string } {
  const rows = new Map<string, { values: unknown[]; fields: Set<string> }>();
  for (const g of groups) {
    const doc = bundles[g];
    for (const [name, raw] of Object.entries<Node>(doc.components?.schemas ?? {})) {
      for (const [prop, schema] of Object.entries<Node>(deref(doc, raw)?.properties ?? {})) {
        const items = deref(doc, schema)?.type === 'array';
        const e = enumeration(doc, items ? deref(doc, schema).items : schema);
        if (!e?.open) continue;
        const key = e.name ?? `${name}.${prop}`;
        const row = rows.get(key) ?? { values: e.values, fields: new Set<string>() };
        row.fields.add(`${name}.${prop}${items ? '[]' : ''}`);
        rows.set(key, row);
      }
    }
  }
  if (rows.size === 0) throw new Error('the contract has no open enumerations');
  const body = [...rows]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([name, { values, fields }]) =>
        `<tr><td>${code(name)}</td><td>${values.map((v) => code(v === null ? 'null' : v)).join(' ')}</td><td>${[...fields].map(code).join(' ')}</td></tr>`,
    )
    .join('');
  return {
    count: rows.size,
    table: `<table><thead><tr><th>Enumeration</th><th>Values today</th><th>Fields</th></tr></thead><tbody>${body}</tbody></table>`,
  };
}
