// Every cursor list's response example is a last page (`nextCursor: null`): the mock serves these examples as
// they are, and a client's pager (eachEvent, eachPayout...) follows `nextCursor` until it is null, so an example
// with a cursor would make every pager run against the mock loop for ever.
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { isCursorList } from '../../scripts/mock/front.js';
import { bundles, operationsOf, resolve, type Json } from '../support/contract.js';

const cases = groups.flatMap((group) => {
  const doc = bundles[group];
  return operationsOf(group).flatMap(({ path, method, op }) =>
    Object.entries<Json>(op.responses ?? {}).flatMap(([status, raw]) =>
      Object.entries<Json>(resolve(doc, raw).content ?? {}).flatMap(([media, mt]) => {
        if (!isCursorList(doc, mt.schema)) return [];
        const examples = [
          ...('example' in mt ? [['example', mt.example] as const] : []),
          ...Object.entries<Json>(mt.examples ?? {}).map(([name, ex]) => [name, resolve(doc, ex).value] as const),
        ];
        return examples.map(([name, value]) => ({ where: `${group} ${method.toUpperCase()} ${path} ${status} ${media} ${name}`, value }));
      }),
    ),
  );
});

describe('cursor list examples', () => {
  it('exist (the walk finds the lists)', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases.map((c) => [c.where, c.value] as const))('%s ends the list', (_where, value) => {
    expect(value).toHaveProperty('nextCursor', null);
  });
});
