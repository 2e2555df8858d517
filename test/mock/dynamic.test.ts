// The dynamic mock (`MOCK_DYNAMIC=true npm run mock`: answers generated from the schemas by Prism's
// json-schema-faker) answers every operation of every group, three times over since each answer is drawn anew:
// never a 5xx, always a documented status with a body of the documented shape (as far as the generator can
// follow the schemas; an open enumeration drawn from its documented values), and every list a last page.
import { existsSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, type Group } from '../../generated/index.js';
import { suitePortRange } from '../support/ports.js';
import { startMocks, type RunningMocks } from '../../scripts/mock/servers.js';
import { bundles, operationsOf } from '../support/contract.js';
import { clientFor, mockAuth, type AnyClient } from './group-clients.js';
import { documentedResponse, exampleRequest, type OperationRef } from './operation-requests.js';

let mocks: RunningMocks | undefined;
beforeAll(async () => {
  mocks = await startMocks({ portBase: await suitePortRange(groups.length, 5900, 6500), dynamic: true });
}, 120_000);
afterAll(async () => {
  const documents = Object.values(mocks?.documents ?? {});
  await mocks?.stop();
  // Each temporary document is gone with its Prism (the 'close' handler ran before stop resolved).
  expect(documents.length).toBe(groups.length);
  expect(documents.filter((d) => existsSync(d))).toEqual([]);
});

/**
 * The contract less what json-schema-faker cannot follow, so that a generated body is held to every rule the
 * generator can honour (types, required fields, enums, lengths, patterns, oneOf): a string with both `pattern`
 * and `format` is drawn from the pattern alone (a website `http://a.b/%` is no URI), so formats are not checked,
 * and `if`/`then`/`else` is ignored by the generator (a wire's bank id need not be a BIC), so it is left out.
 */
function withoutConditionals(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutConditionals);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'if' && key !== 'then' && key !== 'else')
      .map(([key, value]) => [key, withoutConditionals(value)]),
  );
}
const generatable = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
// An open enumeration's drawn value must be one of its documented ones: its open member matches nothing here.
const closed = (doc: object) => {
  const d = structuredClone(doc) as { components: { schemas: Record<string, unknown> } };
  d.components.schemas.OpenEnumValue = { not: {} };
  return d;
};
for (const g of groups)
  generatable.addSchema({ ...(withoutConditionals(closed(bundles[g])) as object), $id: `https://payouts.example/generatable/${g}` });

const clients = new Map<Group, AnyClient>();
function clientOf(group: Group): AnyClient {
  let client = clients.get(group);
  if (!client) {
    client = clientFor(group, mocks!.urls[group], mockAuth(group));
    clients.set(group, client);
  }
  return client;
}

describe.each(groups)('the dynamic %s mock', (group) => {
  const operations: OperationRef[] = operationsOf(group).map((o) => ({ group, ...o }));
  it.each(operations.map((ref) => [`${ref.method.toUpperCase()} ${ref.path}`, ref] as const))(
    '%s answers three times as documented',
    async (name, ref) => {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const { data, error, response } = await clientOf(group).request(ref.method, ref.path, exampleRequest(ref));
        const body = data ?? error;
        expect(response.status, `${name} attempt ${attempt}: ${JSON.stringify(body)?.slice(0, 500)}`).toBeLessThan(500);
        const documented = documentedResponse(ref, response.status);
        expect(documented, `${name} does not document ${response.status}`).toBeDefined();
        const media = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
        const content = documented!.content.get(media);
        if (documented!.content.size === 0) continue;
        expect(content, `${name} ${response.status} does not document ${media}`).toBeDefined();
        const validate = generatable.getSchema(`https://payouts.example/generatable/${group}${content!.schemaPointer}`)!;
        expect(validate(body), `${name} attempt ${attempt}: ${JSON.stringify(validate.errors)?.slice(0, 800)}`).toBe(true);
        const page = body as { nextCursor?: unknown; totalCount?: unknown; data?: unknown[] };
        if (page && typeof page === 'object' && 'nextCursor' in page) expect(page.nextCursor).toBeNull();
        if (page && typeof page === 'object' && 'totalCount' in page) expect(page.totalCount).toBe(page.data?.length);
      }
    },
  );
});
