// One pager per list: every operation of the contract that answers a page (a cursor page `{data, nextCursor}`,
// a page-number page `{data, totalCount}`, or a plain array it takes `pageNumber` for) has a client pager listed
// in `pagers`, exported by the client's entry point. Each pager is driven against the server by the suite of its
// operation (payouts, events, payees, partner, counterparty tests).
import { describe, expect, it } from 'vitest';
import * as client from '../../client/index.js';
import { pagers } from '../../client/paginate.js';
import { groups } from '../../generated/index.js';
import { bundles, operationsOf, resolve } from '../support/contract.js';

function isPaged(group: (typeof groups)[number], op: any): boolean {
  const doc = bundles[group];
  const ok = resolve(doc, op.responses?.['200'] ?? {});
  const schema = resolve(doc, ok?.content?.['application/json']?.schema ?? {});
  const properties = Object.keys(resolve(doc, schema).properties ?? {});
  if (properties.includes('nextCursor') || properties.includes('totalCount')) return true;
  const params = (op.parameters ?? []).map((p: any) => resolve(doc, p).name);
  const body = resolve(doc, resolve(doc, op.requestBody ?? {})?.content?.['application/json']?.schema ?? {});
  return params.includes('PageNumber') || Object.keys(body?.properties ?? {}).includes('pageNumber');
}

describe('client pagers', () => {
  const paged = [
    ...new Set(
      // The console's own lists are its page's, not the client package's (openapi/console/).
      groups
        .filter((g) => g !== 'console')
        .flatMap((g) =>
          operationsOf(g)
            .filter((o) => isPaged(g, o.op))
            .map((o) => o.op.operationId as string),
        ),
    ),
  ];

  it('finds the paged lists of the contract', () => {
    expect(paged).toEqual(expect.arrayContaining(['listPayouts', 'listEvents', 'listPayees', 'searchTransactions']));
  });

  it.each(paged)('%s has a pager in the client', (operationId) => {
    const name = pagers[operationId as keyof typeof pagers];
    expect(name, `add a pager for ${operationId} to client/paginate.ts and its pagers table`).toBeDefined();
    expect(typeof (client as Record<string, unknown>)[name]).toBe('function');
  });

  it('lists no pager for an operation that is not a paged list', () => {
    expect(Object.keys(pagers).filter((id) => !paged.includes(id))).toEqual([]);
  });
});
