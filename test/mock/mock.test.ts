// The Prism mocks of every group (scripts/mock/servers.ts), driven through the generated clients: every
// operation of every bundle answers its documented success example to the documented example request,
// refuses a missing token and an invalid body with a problem, and every answer validates against the contract.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../client/webhook-signature.js';
import { describePayoutEvent, quickStart, webhookReceiver } from '../../docs/guides/quickstart.js';
import type { WebhookEvent } from '../../client/webhooks.js';
import type { AddressInfo } from 'node:net';
import { routes as bankingRoutes } from '../../generated/banking/routes.js';
import { routes as consoleRoutes } from '../../generated/console/routes.js';
import { routes as counterpartyRoutes } from '../../generated/counterparty/routes.js';
import { routes as merchantRoutes } from '../../generated/merchant/routes.js';
import { routes as partnerRoutes } from '../../generated/partner/routes.js';
import { routes as platformRoutes } from '../../generated/platform/routes.js';
import { groups, type Group } from '../../generated/index.js';
import { startMocks, type RunningMocks } from '../../scripts/mock/servers.js';
import { bundles, operationsOf, resolve, validatorAt, type Json } from '../support/contract.js';
import { suitePortRange } from '../support/ports.js';
import { clientFor, exampleCredentials, mockAuth, withoutToken, type AnyClient } from './group-clients.js';
import {
  documentedResponse,
  exampleRequest,
  follow,
  invalidBody,
  isSecured,
  successStatus,
  type OperationRef,
} from './operation-requests.js';

const routeTables: Record<Group, readonly { method: string; path: string; operationId: string }[]> = {
  merchant: merchantRoutes,
  platform: platformRoutes,
  partner: partnerRoutes,
  banking: bankingRoutes,
  counterparty: counterpartyRoutes,
  console: consoleRoutes,
};

let mocks: RunningMocks | undefined;
const prismOutput: string[] = [];

beforeAll(async () => {
  mocks = await startMocks({
    portBase: await suitePortRange(groups.length, 4510, 5500),
    onLine: (g, line) => prismOutput.push(`[${g}] ${line}`),
  });
}, 120_000);
afterAll(async () => {
  await mocks?.stop();
});

function urlOf(group: Group): string {
  if (!mocks) throw new Error('the mocks did not start');
  return mocks.urls[group];
}

const clients = new Map<Group, AnyClient>();
/** One credentialed client per group, so its token is fetched from the mock once and reused. */
function clientWithCredentials(group: Group): AnyClient {
  let client = clients.get(group);
  if (!client) {
    client = clientFor(group, urlOf(group), mockAuth(group));
    clients.set(group, client);
  }
  return client;
}

/** Statuses the generated client retries (with backoff, honouring Retry-After): asked for with Prefer, they would
 * be asked for again and again. */
const retried = (status: number) => status === 429 || status >= 500;

/** The media type object of a response, after $refs. */
function resolveContent(ref: OperationRef, status: number, media: string): Json | undefined {
  const [response] = follow(ref.group, ref.op.responses?.[String(status)], '');
  return response?.content?.[media];
}

const mediaType = (response: Response) => (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
const describeOp = (ref: OperationRef) => `${ref.method.toUpperCase()} ${ref.path}`;

/** The body validates against the schema the contract documents for this status and media type. */
function expectDocumented(ref: OperationRef, response: Response, body: unknown): void {
  const documented = documentedResponse(ref, response.status);
  expect(documented, `${describeOp(ref)} does not document status ${response.status}`).toBeDefined();
  const content = documented!.content.get(mediaType(response));
  expect(content, `${describeOp(ref)} ${response.status} does not document ${mediaType(response)}`).toBeDefined();
  const validate = validatorAt(ref.group, content!.schemaPointer);
  const valid = validate(body);
  expect(valid, `${describeOp(ref)} ${response.status} body ${JSON.stringify(body)} is not valid: ${JSON.stringify(validate.errors)}`).toBe(
    true,
  );
}

function expectProblem(ref: OperationRef, response: Response, body: unknown): void {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(mediaType(response)).toBe('application/problem+json');
  expectDocumented(ref, response, body);
}

describe.each(groups)('the %s mock', (group) => {
  const operations: OperationRef[] = operationsOf(group).map((o) => ({ group, ...o }));

  it('covers every operation of the route table', () => {
    const fromBundle = operations.map((o) => `${o.method} ${o.path} ${o.op.operationId}`).sort();
    const fromRoutes = routeTables[group].map((r) => `${r.method} ${r.path} ${r.operationId}`).sort();
    expect(fromBundle).toEqual(fromRoutes);
    expect(operations.length).toBe(routeTables[group].length);
  });

  describe.each(operations.map((ref) => [`${describeOp(ref)} (${String(ref.op.operationId)})`, ref] as const))('%s', (_name, ref) => {
    it('answers the example request with the documented success example', async () => {
      const request = exampleRequest(ref);
      const { data, error, response } = await clientWithCredentials(group).request(ref.method, ref.path, request);
      const status = successStatus(ref);
      expect(response.status, `${describeOp(ref)} answered ${JSON.stringify(error)}`).toBe(status);
      const documented = documentedResponse(ref, status)!;
      if (documented.content.size === 0) {
        expect(data).toBeUndefined();
        return;
      }
      const content = documented.content.get(mediaType(response));
      expect(content, `${describeOp(ref)} answered ${mediaType(response)}`).toBeDefined();
      expect(content!.example.found, `${describeOp(ref)} ${status} has no example`).toBe(true);
      expect(data).toEqual(content!.example.value);
      expectDocumented(ref, response, data);
    });

    // Token operations need no token; operations without a body cannot get an invalid one.
    if (isSecured(ref)) {
      it('refuses a request without a token with a 401 problem', async () => {
        const client = clientFor(group, urlOf(group), { token: 'unused' }, withoutToken);
        const { error, response } = await client.request(ref.method, ref.path, exampleRequest(ref));
        expect(response.status).toBe(401);
        expectProblem(ref, response, error);
      });
    }

    // Behind the front, Prism still serves any documented answer to a valid request on demand.
    const named = Object.entries<Json>(ref.op.responses ?? {}).flatMap(([status, raw]) => {
      const [response] = follow(group, raw, '');
      const json: Json | undefined = response.content?.['application/problem+json'] ?? response.content?.['application/json'];
      return Object.keys(json?.examples ?? {}).map((name) => [Number(status), name] as const);
    });
    it('answers `Prefer: code=N` and `Prefer: example=NAME` with any documented answer', async () => {
      const request = exampleRequest(ref);
      for (const status of Object.keys(ref.op.responses ?? {}).filter((s) => /^\d{3}$/.test(s) && !retried(Number(s)))) {
        const header = { ...request.params.header, Prefer: `code=${status}` };
        const { response } = await clientWithCredentials(group).request(ref.method, ref.path, {
          ...request,
          params: { ...request.params, header },
        });
        expect(response.status, `${describeOp(ref)} Prefer: code=${status}`).toBe(Number(status));
      }
      for (const [status, name] of named.filter(([status]) => !retried(status))) {
        const header = { ...request.params.header, Prefer: `code=${status}, example=${name}` };
        const { data, error, response } = await clientWithCredentials(group).request(ref.method, ref.path, {
          ...request,
          params: { ...request.params, header },
        });
        expect(response.status).toBe(status);
        const [example] = follow(
          group,
          Object.entries<Json>(resolveContent(ref, status, mediaType(response))?.examples ?? {}).find(([n]) => n === name)?.[1],
          '',
        );
        expect(data ?? error, `${describeOp(ref)} ${status} example ${name}`).toEqual(example?.value);
      }
    });

    const invalid = invalidBody(ref, ref.op.requestBody ? exampleRequest(ref).body : undefined);
    if (invalid) {
      it(`refuses the example body ${invalid.change} with a 4xx problem`, async () => {
        const { error, response } = await clientWithCredentials(group).request(ref.method, ref.path, {
          ...exampleRequest(ref),
          body: invalid.body,
        });
        expectProblem(ref, response, error);
      });
    }
  });
});

// The quick start the quick-start guide shows (docs/guides/quickstart.ts), run against the mocks: it works, and
// each body it sends is one of the contract's request examples, so the page and the reference agree.
describe('the docs quick start', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The operation of `group` a request goes to, by method and path template. */
  function operationOf(group: Group, method: string, pathname: string): OperationRef | undefined {
    return operationsOf(group)
      .map((o) => ({ group, ...o }))
      .find((o) => o.method === method.toLowerCase() && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));
  }

  function requestExamples(ref: OperationRef): unknown[] {
    const [rb] = follow(ref.group, ref.op.requestBody, '');
    const content: Json = rb?.content?.['application/json'] ?? {};
    return [
      ...('example' in content ? [content.example] : []),
      ...Object.values<Json>(content.examples ?? {}).map((e) => follow(ref.group, e, '')[0].value),
    ];
  }

  it("runs against the mocks and sends only the contract's example bodies", async () => {
    const sent: { group: Group; method: string; pathname: string; body: unknown }[] = [];
    const realFetch = globalThis.fetch;
    const groupOfOrigin = new Map(groups.map((g) => [new URL(urlOf(g)).origin, g] as const));
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const text = await request.clone().text();
      sent.push({
        group: groupOfOrigin.get(url.origin)!,
        method: request.method,
        pathname: url.pathname,
        body: text ? JSON.parse(text) : undefined,
      });
      return realFetch(request);
    });
    vi.spyOn(console, 'log').mockImplementation(() => undefined);

    const result = await quickStart({
      baseUrl: urlOf('merchant'),
      platformUrl: urlOf('platform'),
      authUrl: urlOf('merchant'),
      credentials: exampleCredentials('merchant'),
    });
    expect(result.payout.Status).toBe('created');
    expect(result.account.PayeeAccountId).toMatch(/^pa_/);

    expect(sent.map((r) => `${r.group} ${r.method} ${r.pathname}`)).toContain('platform POST /api/v1/fees/calculate');
    for (const request of sent) {
      const ref = operationOf(request.group, request.method, request.pathname);
      expect(ref, `${request.method} ${request.pathname} is not an operation of ${request.group}`).toBeDefined();
      if (request.body !== undefined) expect(requestExamples(ref!)).toContainEqual(request.body);
    }
  });

  const webhookExamples = Object.entries<Json>(bundles.merchant.webhooks ?? {}).map(([name, item]) => {
    const content = resolve(bundles.merchant, item).post.requestBody.content['application/json'];
    return [name, follow('merchant', Object.values<Json>(content.examples)[0], '')[0].value] as const;
  });

  /** The guide's receiver on a free port with `secret`: what it answered each delivery and what it handled. */
  async function postedTo(secret: string | undefined, body: string, headers: Record<string, string>) {
    const handled: WebhookEvent[] = [];
    const server = webhookReceiver(secret, (event) => void handled.push(event));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      // The receiver answers before it handles: wait for the handling it promised.
      if (answer.status === 200) await vi.waitFor(() => expect(handled).toHaveLength(1));
      return { status: answer.status, handled };
    } finally {
      await new Promise((done) => server.close(done));
    }
  }

  it.each(webhookExamples)(
    'receives the %s example signed, and refuses it unsigned, forged or without a secret',
    async (_name, payload) => {
      const body = JSON.stringify(payload);
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const timestamp = Math.floor(Date.now() / 1000);
      const id = 'evt_01jd8x3m0a2b4c6d8e0f2g4h6j';
      const signed = {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signWebhook(secret, id, timestamp, body),
      };

      const received = await postedTo(secret, body, signed);
      expect(received.status).toBe(200);
      expect(describePayoutEvent(received.handled[0]!)).toContain(
        !String(payload.type).startsWith('payout.')
          ? `ignored ${payload.type}`
          : payload.state === 'completed'
            ? payload.amount
            : payload.state === 'failed' || payload.state === 'cancelled'
              ? 'not paid'
              : payload.state,
      );
      // Fails closed: a changed body, no signature, or a receiver started without its secret handles nothing.
      expect(await postedTo(secret, body.replace('"', ' "'), signed)).toEqual({ status: 400, handled: [] });
      expect(await postedTo(secret, body, {})).toEqual({ status: 400, handled: [] });
      expect(await postedTo(undefined, body, signed)).toEqual({ status: 500, handled: [] });
    },
  );
});
