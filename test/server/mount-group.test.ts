// mountGroup on its own: one group on an app of its own port, nothing else answering, and response
// validation catching a handler that breaks the contract: after a read, a 500 problem, logged, never the bad
// body; after a write, which has committed, the response as produced, reported as a violation.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as platformRoutes from '../../generated/platform/routes.js';
import { createPlatformClient } from '../../client/create-clients.js';
import { unwrap } from '../../client/problem-error.js';
import { loadDocument } from '../../server/http/groups/registry.js';
import { platformHandlers } from '../../server/http/groups/platform/handlers.js';
import { notFound, problemHandler } from '../../server/http/errors.js';
import type { ContractViolation } from '../../server/http/locals.js';
import { mountGroup } from '../../server/http/mount-group.js';
import type { OperationHandler } from '../../server/http/operation-handler.js';
import { requestId } from '../../server/http/request-id.js';
import type { RequestContext } from '../../server/domain/auth/principal.js';
import { contextOf, merchantContext } from '../../server/http/request-context.js';
import { individual } from '../support/merchants.js';
import { startService } from '../support/service.js';
import { useService } from '../support/use-service.js';

const service = useService(':memory:');
let server: ReturnType<express.Express['listen']>;
let baseUrl: string;
let token: string;
const logged: string[] = [];
const violations: ContractViolation[] = [];

beforeAll(async () => {
  const m = await service.services.credentials.createMerchant('Acme');
  token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
  const handlers = platformHandlers(service.services) as unknown as Record<string, OperationHandler<never, RequestContext>>;
  // A handler that answers a body the contract does not allow.
  handlers.listPayouts = (async () => ({
    status: 200,
    body: { data: [{ PayoutUniqueReference: 'not-a-reference' }], nextCursor: null },
  })) as never;
  // A write whose response breaks the contract: the payout it stands for would be committed by now.
  handlers.createPayout = (async () => ({ status: 202, body: { PayoutUniqueReference: 'po_committed-but-misshapen' } })) as never;
  const app = express();
  app.use(requestId, express.json());
  mountGroup(app, {
    document: loadDocument('platform'),
    basePath: platformRoutes.basePath,
    routes: platformRoutes.routes,
    handlers,
    // The security handler gives the group's context (groups/registry.ts's: the merchant the token names).
    security: {
      MerchantOAuth: async (req) => {
        const principal = await service.services.tokens.verify(req.headers.authorization);
        if (principal.kind !== 'merchant') throw new Error('a merchant token only');
        return merchantContext(req, principal);
      },
    },
    anonymous: (req) => contextOf(req),
    validateResponses: true,
    onContractViolation: (violation) => violations.push(violation),
  });
  app.use(
    notFound(),
    problemHandler((_, message) => logged.push(message)),
  );
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
});

describe('a single group on its own port', () => {
  it('serves its operations under its base path', async () => {
    const client = createPlatformClient({ baseUrl: `${baseUrl}/payouts`, token });
    const created = await unwrap(client.POST('/v1/payees/Create', { body: individual }));
    expect(await unwrap(client.GET('/v1/payees/{id}', { params: { path: { id: created.id } } }))).toEqual(created);
  });

  it("answers nothing outside them: other groups' paths and its own paths without the base are 404 problems", async () => {
    for (const path of ['/v1/payees', '/v1/payees/Create', '/finance/v1/partner/list', '/oauth/token']) {
      const r = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('validates responses: a handler breaking the contract yields a logged 500 problem, not its body', async () => {
    const r = await fetch(`${baseUrl}/payouts/v1/payouts`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(500);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'https://payouts.example/problems/internal-error', status: 500 });
    expect(JSON.stringify(body)).not.toContain('not-a-reference');
    expect(logged).toContain('request failed');
  });

  it("sends a write's response that breaks the contract as produced, and reports it: a 500 would hide a committed payout", async () => {
    const r = await fetch(`${baseUrl}/payouts/v1/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ PayeeId: 1, Amount: 10, Currency: 'USD' }),
    });
    expect(r.status).toBe(202);
    expect(await r.json()).toEqual({ PayoutUniqueReference: 'po_committed-but-misshapen' });
    expect(violations).toEqual([
      expect.objectContaining({ method: 'POST', path: '/payouts/v1/payouts', status: 202, errors: expect.any(Array) }),
    ]);
  });
});

describe('apps of one process', () => {
  // They share each document's validator (mount-group.ts validatorFor): its compiled schemas are the cost of a
  // fresh app. What belongs to an app, its callers and its contract-violation report, must stay its own.
  it("share the validator, never each other's callers or reports", async () => {
    const other = await startService(':memory:');
    try {
      const r = await fetch(`${other.baseUrl}/payouts/v1/payees/1`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(401);
      const m = await other.services.credentials.createMerchant('Other');
      const own = (await other.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      const mine = await fetch(`${other.baseUrl}/payouts/v1/payouts`, { headers: { authorization: `Bearer ${own}` } });
      expect(mine.status).toBe(200);
      const before = violations.length;
      const created = await fetch(`${other.baseUrl}/payouts/v1/payees/Create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${own}`, 'content-type': 'application/json' },
        body: JSON.stringify(individual),
      });
      expect(created.status).toBe(201);
      expect(violations.length).toBe(before);
      expect(other.contractViolations).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
