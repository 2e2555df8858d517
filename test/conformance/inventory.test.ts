// The server's route inventory is the contract's: every documented operation of every group is mounted
// (a request reaches its handler, not the 404 fallback), nothing undocumented answers, and every
// operationId is exercised by a test against the real server (test/server calls it through a generated
// client with its exact method and path, so a test of another method on the same path does not count).
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import * as banking from '../../generated/banking/routes.js';
import * as consoleRoutes from '../../generated/console/routes.js';
import * as counterparty from '../../generated/counterparty/routes.js';
import * as merchant from '../../generated/merchant/routes.js';
import * as partner from '../../generated/partner/routes.js';
import * as platform from '../../generated/platform/routes.js';
import { operationsOf } from '../support/contract.js';
import { startService, type RunningService } from '../support/service.js';

const basePaths: Record<string, string> = { merchant: '', platform: '/payouts', partner: '', banking: '', counterparty: '', console: '' };
const serverTests = readdirSync(new URL('../server', import.meta.url))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => readFileSync(new URL(`../server/${f}`, import.meta.url), 'utf8'))
  .join('\n');

let service: RunningService;
beforeAll(async () => {
  service = await startService(':memory:');
});
afterAll(() => service.stop());

describe.each(groups)('%s inventory', (group) => {
  const ops = operationsOf(group);

  it.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s is mounted', async (_, { method, path, op }) => {
    const atOrigin = Array.isArray(op.servers) && op.servers.length > 0;
    const url = (atOrigin ? '' : basePaths[group]) + path.replace(/\{[^}]+\}/g, '1');
    const r = await fetch(`${service.baseUrl}${url}`, {
      method: method.toUpperCase(),
      headers: { 'content-type': 'application/json' },
      body: method === 'get' ? undefined : '{}',
    });
    const body = (await r.json().catch(() => ({}))) as { detail?: string };
    // Unauthenticated or invalid, but never "No operation at ...".
    expect(body.detail ?? '').not.toMatch(/^No operation at/);
    expect(r.status).not.toBe(500);
  });

  it.each(ops.map((o) => [o.op.operationId as string, o] as const))('%s is tested against the real server', (_, { method, path }) => {
    expect(serverTests.includes(`.${method.toUpperCase()}('${path}'`), `${method.toUpperCase()} ${path} of ${group}`).toBe(true);
  });
});

describe('nothing undocumented answers', () => {
  // A documented path asked with another method is 405 with Allow; a path nobody documents is 404.
  it.each([
    ['GET', '/v1/payees', 405, 'POST'],
    ['PUT', '/v1/payees/1', 405, 'GET, HEAD, PATCH'],
    ['POST', '/payouts/v1/webhooks', 404, null],
    ['GET', '/finance/v1/payment_request', 405, 'POST'],
    ['DELETE', '/finance/api/v1/business/1', 405, 'GET, HEAD'],
    ['POST', '/v2/payouts', 404, null],
    ['GET', '/admin', 404, null],
  ] as const)('%s %s is a %s problem', async (method, path, status, allow) => {
    const r = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : '{}',
    });
    expect(r.status).toBe(status);
    expect(r.headers.get('allow')).toBe(allow);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });

  it('has a route table entry for exactly each documented operation', () => {
    const tables = { merchant, platform, partner, banking, counterparty, console: consoleRoutes };
    for (const group of groups) {
      expect(tables[group].routes.map((r) => `${r.method} ${r.path} ${r.operationId}`).sort()).toEqual(
        operationsOf(group)
          .map((o) => `${o.method} ${o.path} ${o.op.operationId}`)
          .sort(),
      );
    }
  });
});
