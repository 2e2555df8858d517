// Only the documented paths, as written, are answered: routing is case-sensitive and strict (server/http/app.ts), in
// Express's router and in express-openapi-validator's route match (server/http/validator-route-lookup.ts), so every
// operation path of every group, upper-cased, with one letter capitalised or with a trailing slash, gets the 404
// problem an unknown path gets, never the operation (which a valid token would reach: 200, 400 or a 404 of its own).
import { beforeAll, describe, expect, it } from 'vitest';
import { groups, routeTables } from '../../generated/index.js';
import { fill } from '../support/requests.js';
import { problemType } from '../support/requests.js';
import { useService } from '../support/use-service.js';

// The console's operations take a session cookie, not a token: the merchant's token is sent and changes nothing there.
const callerOf = {
  merchant: 'merchant',
  platform: 'merchant',
  banking: 'merchant',
  partner: 'partner',
  counterparty: 'partner',
  console: 'merchant',
} as const;

const operations = groups.flatMap((group) =>
  routeTables[group].routes.map((r) => ({
    group,
    method: r.method.toUpperCase(),
    path: fill((r.atOrigin ? '' : routeTables[group].basePath) + r.path, {}).replace(/\/1(?=\/|$)/g, '/551'),
  })),
);

const variants: [string, (path: string) => string][] = [
  ['upper-cased', (path) => path.toUpperCase()],
  ['with its first letter capitalised', (path) => path.replace(/[a-z]/, (c) => c.toUpperCase())],
  ['with a trailing slash', (path) => `${path}/`],
];

describe('routing is case-sensitive and strict', () => {
  const service = useService(':memory:', {}, { workers: false });
  const tokens = { merchant: '', partner: '' };
  beforeAll(async () => {
    // The suite's merchant, and a partner linked to it.
    tokens.merchant = (await service.merchant()).token;
    tokens.partner = (await service.partner()).token;
  });

  it('covers every operation of every group', () => {
    expect(operations.length).toBe(groups.reduce((n, g) => n + routeTables[g].routes.length, 0));
    expect(operations.length).toBeGreaterThan(80);
  });

  it.each(variants)('answers every operation path %s with the 404 problem of an unknown path', async (_, vary) => {
    const misses: string[] = [];
    for (const o of operations) {
      const path = vary(o.path);
      const a = await service.send(o.method, path, {
        token: tokens[callerOf[o.group]],
        ...(['POST', 'PUT', 'PATCH'].includes(o.method) ? { body: {} } : {}),
      });
      const unknown =
        a.status === 404 &&
        a.headers.get('content-type')?.includes('application/problem+json') &&
        a.body?.type === problemType('not-found') &&
        a.body?.detail === `No operation at ${o.method} ${path}.`;
      if (!unknown) misses.push(`${o.group} ${o.method} ${path}: ${a.status} ${a.text.slice(0, 120)}`);
    }
    expect(misses).toEqual([]);
  });

  it('still answers the paths as documented', async () => {
    const a = await service.send('GET', '/v1/payees/551', { token: tokens.merchant });
    expect(a.status).toBe(404);
    expect(a.body.detail).not.toMatch(/^No operation/);
    expect((await service.send('GET', '/v1/webhooks', { token: tokens.merchant })).status).toBe(200);
    // Another method on a documented path is still 405; on a variant of it, the path is unknown.
    expect((await service.send('PUT', '/v1/payees/551', { token: tokens.merchant })).status).toBe(405);
    expect((await service.send('PUT', '/v1/payees/551/', { token: tokens.merchant })).status).toBe(404);
  });
});
