// Each operation's documented 404 example (its `x-not-found`, made into the bundle's example by
// scripts/contract/not-found-examples.ts) is what the service answers: for every operation of every group that
// documents 404, the request the example describes goes to a running service, and the answer must have the example's
// type, title, status and detail, and its instance. The request is made from the example's own values: its instance is
// the path asked for (it must be the operation's path, under the group's base path), and the fields at fault it names, its query and body are the
// operation's documented request examples, whose ids name nothing of the tenant's. Where the documented cause needs a
// resource that exists (a known registration without that delivery, a known business without that account, a linked
// merchant without that payee) or one the service names itself (a registration deleted since), the trigger uses the
// tenant's own and says which of the example's values it stands for, and those are compared in its place.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundles, resolve, type Json } from '../support/contract.js';
import { ConsoleBrowser, newConsoleUser } from '../support/console.js';
import { requestExamples, servedOperations, type ServedOperation } from '../support/operations.js';
import { type Answer, type Call, fill, send } from '../support/requests.js';
import { loopbackResolver, newTenant, type Tenant } from '../support/tenant.js';
import { useService, type ServiceFixture } from '../support/use-service.js';

interface World {
  service: ServiceFixture;
  t: Tenant;
  console: ConsoleBrowser;
}

interface Example {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: { detail: string; parameter?: string; pointer?: string }[];
}

/** What a trigger sends, and which of the example's values its answer names in their place (example's → tenant's). */
type Trigger = (w: World, o: ServedOperation, example: Example) => Promise<{ answer: Answer; as?: Record<string, string | number> }>;

/** The documented 404 example of an operation (the first, as Prism serves it). */
function exampleOf(o: ServedOperation): Example {
  const doc = bundles[o.group];
  const examples = resolve(doc, o.op.responses['404']).content['application/problem+json'].examples;
  return resolve(doc, Object.values<Json>(examples)[0]).value;
}

/** A parameter's documented example (its own, else its schema's). */
function parameterExample(o: ServedOperation, name: string): string | number {
  const doc = bundles[o.group];
  const item = resolve(doc, doc.paths[o.path]);
  const p = [...(item.parameters ?? []), ...(o.op.parameters ?? [])].map((x: Json) => resolve(doc, x)).find((x: Json) => x.name === name);
  const value = p?.example ?? Object.values<Json>(p?.examples ?? {})[0]?.value ?? resolve(doc, p?.schema)?.example;
  if (value === undefined) throw new Error(`${o.operationId}: parameter ${name} has no example`);
  return value;
}

/** The path parameters an instance holds, when it is the operation's path (base path included); else undefined. */
function valuesIn(o: ServedOperation, instance: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = o.url.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(instance);
  return match ? Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)])) : undefined;
}

/** The request of a caller of the operation's kind: its token, or the console session's cookie and CSRF token. */
function call(w: World, o: ServedOperation, path: string, c: Call = {}): Promise<Answer> {
  if (o.caller === 'console') return w.console.send(o.method.toUpperCase(), path, c);
  const token = o.caller === 'partner' ? w.t.partnerToken : w.t.merchantToken;
  return send(w.service.baseUrl, o.method.toUpperCase(), path, { token, ...c });
}

/** The operation's first documented request body, and its required query parameters at their examples. */
function documentedRequest(o: ServedOperation): Call {
  const body = Object.values(requestExamples(o))[0];
  const query = Object.fromEntries(
    o.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, parameterExample(o, p.name)]),
  );
  return { ...(body === undefined ? {} : { body }), query };
}

/** The example's own request: its instance as the path, the documented query and body. */
const generic: Trigger = async (w, o, example) => ({ answer: await call(w, o, example.instance, documentedRequest(o)) });

/** The documented request with one query parameter at its example (the one naming what is not there). */
const withQuery =
  (name: string): Trigger =>
  async (w, o, example) => ({
    answer: await call(w, o, example.instance, { ...documentedRequest(o), query: { [name]: parameterExample(o, name) } }),
  });

/** A path parameter of the example stood for by the tenant's own resource. */
const ownParent =
  (param: string, own: (w: World) => string | number): Trigger =>
  async (w, o, example) => {
    const values = valuesIn(o, example.instance)!;
    return { answer: await call(w, o, fill(o.url, { ...values, [param]: own(w) })), as: { [values[param]!]: own(w) } };
  };

/** A create replayed (same Idempotency-Key, same body) after the registration it made was deleted: the service names
 * the deleted registration, which the example names by the operation's documented success example. */
const replayOfDeleted: Trigger = async (w, o, example) => {
  const c: Call = { ...documentedRequest(o), headers: { 'Idempotency-Key': randomUUID() } };
  const made = await call(w, o, example.instance, c);
  expect(made.status, made.text).toBe(201);
  const removed = await call(w, { ...o, method: 'delete' }, `${example.instance}?id=${made.body.id}`);
  expect(removed.status, removed.text).toBe(204);
  const documented = resolve(bundles[o.group], o.op.responses['201']).content['application/json'].examples;
  const documentedId = resolve(bundles[o.group], Object.values<Json>(documented)[0]).value.id;
  return { answer: await call(w, o, example.instance, c), as: { [documentedId]: made.body.id } };
};

/** The triggers of the operations whose documented 404 the example's own request does not produce. */
const special: Record<string, Trigger> = {
  // The id the query names is what is missing (the other query parameters are optional).
  listPartnerMerchants: withQuery('partnerId'),
  listRecipients: withQuery('MerchantId'),
  listCounterparties: withQuery('MerchantId'),
  // The tenant's registration, without a delivery of the example's event.
  redeliverWebhookDelivery: ownParent('id', (w) => w.t.ids.webhook),
  redeliverPartnerWebhookDelivery: ownParent('id', (w) => w.t.ids.partnerWebhook),
  // The tenant's business, without the example's account.
  getAccount: ownParent('id', (w) => w.t.ids.business),
  // The caller's own partner id and a merchant linked to it, without the example's payee.
  createPaymentRequest: async (w, o, example) => {
    const body = documentedRequest(o).body as Json;
    const c = { body: { ...body, partnerId: w.t.partnerId, merchantId: w.t.merchantId } };
    return { answer: await call(w, o, example.instance, c), as: { [body.merchantId]: w.t.merchantId } };
  },
  createWebhook: replayOfDeleted,
  createPartnerWebhook: replayOfDeleted,
};

/** `text` with each of the example's values the trigger stood in for replaced by the tenant's (whole words only). */
const standIn = (text: string, as: Record<string, string | number> = {}) =>
  Object.entries(as).reduce(
    (out, [from, to]) => out.replace(new RegExp(`(?<![\\w-])${from.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g'), String(to)),
    text,
  );

const documenting = servedOperations.filter((o) => o.statuses.includes(404));

describe('every documented 404 example is what the service answers', () => {
  const service = useService(':memory:', {}, { resolve: loopbackResolver });
  const w = { service } as World;

  beforeAll(async () => {
    w.t = await newTenant(service, 'Missing');
    const user = await newConsoleUser(service, { kind: 'merchant', id: w.t.merchantId });
    w.console = new ConsoleBrowser(service);
    expect((await w.console.signIn(user.email)).status).toBe(201);
  });

  it('covers every group', () => {
    expect(new Set(documenting.map((o) => o.group)).size).toBe(6);
    expect(documenting.length).toBeGreaterThan(90);
  });

  it.each(documenting.map((o) => [`${o.group} ${o.operationId}`, o] as const))('%s', async (_, o) => {
    const example = exampleOf(o);
    expect(valuesIn(o, example.instance), `the example's instance ${example.instance} is a path of ${o.url}`).toBeDefined();
    const { answer, as } = await (special[o.operationId] ?? generic)(w, o, example);
    expect(answer.status, answer.text).toBe(404);
    const { type, title, status, detail, instance, errors } = answer.body;
    expect({ type, title, status, detail, instance, errors }).toEqual({
      type: example.type,
      title: example.title,
      status: example.status,
      detail: standIn(example.detail, as),
      instance: standIn(example.instance, as),
      // The fields the service names, where it names any: the mock answers the same.
      errors: example.errors?.map((e) => ({ ...e, detail: standIn(e.detail, as) })),
    });
  });
});
