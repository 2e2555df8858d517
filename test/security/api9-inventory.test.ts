// OWASP API9:2023 Improper Inventory Management. test/conformance/inventory.test.ts proves every documented
// operation is mounted and tested and that the generated route tables are the documents' operations. This
// suite takes it to the risk: what the server mounts (the registry's group mounts and their handlers) is
// exactly what the documents list; every document carries a version and https servers with the seed's
// variables; every webhook the dispatcher can send is documented; and no other version, prefix or group
// of a documented path answers: /v0, /v2, /v3, /beta, /internal, /test and the other groups' prefixes all
// get a 404 problem, with any caller.
import { beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { groupMounts } from '../../server/http/groups/registry.js';
import { allEvents } from '../../server/domain/webhooks/webhook-registrations.js';
import { bundles, operationsOf } from '../support/contract.js';
import { basePaths, distinctOperations } from '../support/operations.js';
import { fill, problemType } from '../support/requests.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let tokens: { merchant: string; partner: string };

beforeAll(async () => {
  const m = await service.services.credentials.createMerchant('Acme');
  const p = await service.services.credentials.createPartner('Partner');
  tokens = {
    merchant: await service.token({ kind: 'merchant', merchantId: m.merchantId }),
    partner: await service.token({ kind: 'partner', partnerId: p.partnerId }),
  };
});

describe('what the server mounts is what the documents list', () => {
  it('mounts one group per document, each with a handler for exactly its documented operations', () => {
    const mounts = groupMounts(service.services, true, 'sandbox');
    expect(mounts.map((m) => m.group).sort()).toEqual([...groups].sort());
    for (const mount of mounts) {
      const documented = operationsOf(mount.group)
        .map((o) => `${o.method} ${o.path} ${o.op.operationId}`)
        .sort();
      expect(mount.routes.map((r) => `${r.method} ${r.path} ${r.operationId}`).sort(), mount.group).toEqual(documented);
      expect(Object.keys(mount.handlers).sort(), `${mount.group} handlers`).toEqual(
        [...new Set(operationsOf(mount.group).map((o) => o.op.operationId as string))].sort(),
      );
      expect(mount.document, `${mount.group} serves the bundled document`).toEqual(bundles[mount.group]);
    }
  });

  it.each(groups)('%s: the document states its version and https servers with the seed variables', (group) => {
    const doc = bundles[group];
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.servers.length).toBeGreaterThan(0);
    for (const server of doc.servers) {
      for (const variable of Object.values<{ default: string }>(server.variables ?? {})) expect(variable.default).toMatch(/^https:\/\//);
      expect(server.url).toMatch(/^\{(base_url|sandbox_url|banking_url|auth_url)\}/);
    }
    for (const { op } of operationsOf(group))
      expect(op.deprecated ?? false, `${op.operationId} is not deprecated: nothing old is kept alive`).toBe(false);
  });

  it('documents every webhook event the dispatcher can send', () => {
    // A registration selects among `allEvents`; testWebhook sends `webhook.test` to one registration, whatever it selected.
    const sent = [...allEvents, 'webhook.test'].sort();
    expect(Object.keys(bundles.merchant.webhooks).sort()).toEqual(sent);
    // And every type the events API can answer is one of them.
    expect([...bundles.merchant.components.schemas.EventType.enum].sort()).toEqual(sent);
  });
});

/** Every documented path under another version or an unlisted stage, and under the other groups' prefixes. */
const shadows = distinctOperations.flatMap((o) => {
  const variants = ['v0', 'v2', 'v3', 'beta', 'internal', 'test']
    .filter(() => o.url.includes('/v1/'))
    .map((v) => o.url.replace('/v1/', `/${v}/`));
  const otherPrefixes = Object.values(basePaths)
    .filter((prefix) => prefix !== '' && !o.url.startsWith(prefix))
    .map((prefix) => prefix + o.url)
    .filter((url) => !distinctOperations.some((d) => d.url === url && d.method === o.method));
  const unprefixed =
    o.group === 'platform'
      ? [o.url.replace(/^\/payouts/, '')].filter((url) => !distinctOperations.some((d) => d.url === url && d.method === o.method))
      : [];
  return [...variants, ...otherPrefixes, ...unprefixed].map((url) => ({ o, url }));
});

describe('no other version or prefix of a documented operation answers', () => {
  it('has shadows of every group to try', () => {
    expect(new Set(shadows.map((s) => s.o.group))).toEqual(new Set(groups));
    expect(shadows.length).toBeGreaterThan(200);
  });

  it('answers each with a 404 problem (405 where the path is documented for other methods), whatever the caller', async () => {
    for (const { o, url } of shadows) {
      // A shadow can land on a path documented with other methods (A's PATCH /v1/payees/{id} under B's /payouts,
      // where only GET is served; B's /v1/payees/Create unprefixed, which is A's /v1/payees/{id}): that path
      // exists, so the answer is 405, still never a handler's.
      const pathExists = distinctOperations.some((d) => new RegExp(`^${d.url.replace(/\{[^}]+\}/g, '[^/]+')}$`, 'i').test(fill(url)));
      for (const token of [tokens.merchant, tokens.partner, undefined]) {
        const r = await service.send(o.method.toUpperCase(), fill(url), {
          ...(token ? { token } : {}),
          ...(o.bodySchema ? { body: {} } : {}),
        });
        expect(r.status, `${o.method.toUpperCase()} ${url}: ${r.text.slice(0, 200)}`).toBe(pathExists ? 405 : 404);
        expect(r.body.type).toBe(problemType(pathExists ? 'method-not-allowed' : 'not-found'));
      }
    }
  });

  it('serves the documented operations themselves (the control)', async () => {
    for (const o of distinctOperations) {
      const token = o.caller === 'none' || o.caller === 'console' ? undefined : tokens[o.caller];
      const r = await service.send(o.method.toUpperCase(), fill(o.url), {
        ...(token ? { token } : {}),
        ...(o.bodySchema ? { body: {} } : {}),
      });
      expect(r.body?.detail ?? '', `${o.group} ${o.operationId}`).not.toMatch(/^No operation at/);
    }
  });
});
