// generated/<group>/enums.ts (scripts/contract/enum-lists.ts): every named string enumeration of a group's bundled
// document has its list, under the schema's name, holding the schema's `enum` in its order, and nothing else is listed.
import { describe, expect, it } from 'vitest';
import * as banking from '../../generated/banking/enums.js';
import * as consoleEnums from '../../generated/console/enums.js';
import * as counterparty from '../../generated/counterparty/enums.js';
import { type Group, groups } from '../../generated/index.js';
import * as merchant from '../../generated/merchant/enums.js';
import * as partner from '../../generated/partner/enums.js';
import * as platform from '../../generated/platform/enums.js';
import { enumLists } from '../../scripts/contract/enum-lists.js';
import { bundles } from '../support/contract.js';

const modules: Record<Group, Record<string, unknown>> = { merchant, platform, partner, banking, counterparty, console: consoleEnums };

describe.each(groups)('the enumeration lists of %s', (group) => {
  const schemas: Record<string, { type?: unknown; enum?: unknown[] }> = bundles[group].components?.schemas ?? {};
  const stringEnums = Object.entries(schemas).filter(
    ([, s]) => Array.isArray(s.enum) && (s.type === undefined || s.type === 'string') && s.enum.every((v) => typeof v === 'string'),
  );

  it('lists each named string enumeration as its schema documents it', () => {
    expect(stringEnums.length).toBeGreaterThan(0);
    for (const [name, schema] of stringEnums) expect(modules[group]![name], name).toEqual(schema.enum);
  });

  it('lists nothing else but the open enumerations, each with its documented values', () => {
    const open = enumLists(bundles[group]).filter((list) => list.open);
    for (const { name, values } of open) expect(modules[group]![name], name).toEqual(values);
    expect(Object.keys(modules[group]!).sort()).toEqual([...stringEnums.map(([name]) => name), ...open.map((l) => l.name)].sort());
  });
});

describe('an open enumeration', () => {
  const doc = {
    components: {
      schemas: {
        OpenEnumValue: { type: 'string', maxLength: 100, 'x-open-enum-value': true },
        Closed: { type: 'string', enum: ['a', 'b'] },
        OpenByRef: { anyOf: [{ $ref: '#/components/schemas/Closed' }, { $ref: '#/components/schemas/OpenEnumValue' }] },
        OpenInline: { anyOf: [{ type: 'string', enum: ['x'] }, { $ref: '#/components/schemas/OpenEnumValue' }] },
        TwoKinds: { anyOf: [{ $ref: '#/components/schemas/Closed' }, { type: 'string', enum: ['c'] }] },
        Numbers: { type: 'integer', enum: [1, 2] },
        Nullable: { type: ['string', 'null'], enum: ['a', null] },
      },
    },
  };

  it('lists its documented values, and a union of two enumerations or a non-string one is not listed', () => {
    expect(enumLists(doc)).toEqual([
      { name: 'Closed', values: ['a', 'b'], open: false },
      { name: 'OpenByRef', values: ['a', 'b'], open: true },
      { name: 'OpenInline', values: ['x'], open: true },
    ]);
  });
});
