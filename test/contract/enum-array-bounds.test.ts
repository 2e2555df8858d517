// An array filter of unique enumerated values takes every value at once: its maxItems is never below the number of
// values (a status filter naming all seven payment states was refused while maxItems said six).
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { walk } from '../../scripts/contract/document.js';
import { bundles, resolve, type Json } from '../support/contract.js';

/** Every array schema of a document whose items are enumerated and unique, with where it is. */
function enumArrays(doc: Json): [string, Json, readonly unknown[]][] {
  const found: [string, Json, readonly unknown[]][] = [];
  walk(doc, (node, keys) => {
    const n = node as Json;
    if (!n || typeof n !== 'object' || n.type !== 'array' || n.uniqueItems !== true || !n.items) return;
    const items = resolve(doc, n.items) as Json;
    const known = Array.isArray(items?.enum)
      ? items.enum
      : (items?.anyOf as Json[] | undefined)?.map((m) => resolve(doc, m)).find((m) => Array.isArray(m?.enum))?.enum;
    if (Array.isArray(known)) found.push([`#/${keys.join('/')}`, n, known.filter((v: unknown) => v !== null)]);
  });
  return found;
}

describe.each(groups)('the enumerated array filters of %s', (group) => {
  it('take all of their values at once', () => {
    const found = enumArrays(bundles[group]);
    for (const [at, schema, values] of found)
      if (schema.maxItems !== undefined) expect(schema.maxItems, `${at} (${values.length} values)`).toBeGreaterThanOrEqual(values.length);
  });
});

it('finds enumerated arrays with a bound to check', () => {
  const bounded = groups.flatMap((g) => enumArrays(bundles[g])).filter(([, s]) => s.maxItems !== undefined);
  expect(bounded.length).toBeGreaterThan(0);
});
