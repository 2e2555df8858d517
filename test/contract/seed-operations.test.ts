// Every operation of the seed (../shared/seed/payout-service-interface.md), letter for letter, in its
// group's document, and nothing else but the operations this contract adds on purpose: the first table below is
// the seed's endpoint tables plus the token endpoints; the second lists the additions, with why.
import { describe, expect, it } from 'vitest';
import type { Group } from '../../generated/index.js';
import { bundles, operationsOf, resolve } from '../support/contract.js';
import { basePaths } from '../support/operations.js';

/** The seed's groups: the console's own document (issue 24) has no seed; it is checked at the end. */
type SeedGroup = Exclude<Group, 'console'>;

const seed: Record<SeedGroup, string[]> = {
  merchant: [
    'POST /oauth/token',
    'POST /v1/payees',
    'GET /v1/payees/{id}',
    'PATCH /v1/payees/{id}',
    'POST /v1/payees/list',
    'POST /v1/payees/{id}/accounts',
    'GET /v1/payees/{id}/accounts',
    'GET /v1/payees/{id}/accounts/{account_id}',
    'PATCH /v1/payees/{id}/accounts/{account_id}',
    'DELETE /v1/payees/{id}/accounts/{account_id}',
    'POST /v1/payouts',
    'GET /v1/payouts',
    'GET /v1/payouts/{PayoutUniqueReference}',
    'POST /v1/payouts/{PayoutUniqueReference}/cancel',
    'POST /v1/webhooks',
    'GET /v1/webhooks',
    'DELETE /v1/webhooks',
  ],
  platform: [
    'POST /oauth/token',
    'POST /v1/payees/Create',
    'GET /v1/payees/{id}',
    'POST /v1/payees/list',
    'POST /api/v1/fees/calculate',
    'POST /v1/payouts',
    'GET /v1/payouts',
  ],
  partner: [
    'POST /finance/v1/generate-token',
    'GET /finance/v1/partner/list',
    'POST /finance/v1/recipient-ach',
    'POST /finance/v1/recipient-wire',
    'GET /finance/v1/payees',
    'POST /finance/v1/payment_request',
    'POST /finance/v1/partner/search_transactions',
  ],
  banking: [
    'POST /oauth/token',
    'POST /finance/api/v1/business',
    'GET /finance/api/v1/business/{id}',
    'POST /finance/api/v1/identity-verification',
    'POST /finance/api/v1/counterparty',
    'POST /finance/api/v1/account/{businessId}',
    'GET /finance/api/v1/account/{accountId}/balance',
    'POST /finance/api/v1/transaction/ach/pull',
    'POST /finance/api/v1/transaction/ach/push',
    'POST /finance/api/v1/transaction/wire/international',
    'POST /finance/api/v1/transaction/wire/domestic',
    'POST /finance/api/v1/transaction/internal/transfer',
  ],
  counterparty: [
    'POST /api/v1/generate-token',
    'POST /finance/v1/payee',
    'POST /finance/v1/payment_request',
    'POST /finance/v1/search_transactions',
  ],
};
/** Operations beyond the seed, each asked for by an issue (see openapi/DECISIONS.md). */
const additions: Record<SeedGroup, string[]> = {
  merchant: [
    // Issue 12: events a receiver can recover, and webhook management.
    'GET /v1/events',
    'GET /v1/events/{eventId}',
    'GET /v1/webhooks/{id}',
    'PATCH /v1/webhooks/{id}',
    'POST /v1/webhooks/{id}/rotate-secret',
    'POST /v1/webhooks/{id}/test',
    'GET /v1/webhooks/{id}/deliveries',
    // Payouts that can be followed: the sandbox's test helpers (hold and release, fail, return).
    'POST /v1/simulations/payouts/{PayoutUniqueReference}/return',
    'POST /v1/simulations/payouts/{PayoutUniqueReference}/failure',
    'POST /v1/simulations/payouts/{PayoutUniqueReference}/release',
    // Follow every payment: a delivery sent again on request.
    'POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  ],
  platform: [
    'GET /v1/events',
    'GET /v1/events/{eventId}',
    // Every payout created here can be read back here.
    'GET /v1/payouts/{PayoutUniqueReference}',
    // Payouts that can be followed: the sandbox's test helpers (hold and release, fail, return).
    'POST /v1/simulations/payouts/{PayoutUniqueReference}/return',
    'POST /v1/simulations/payouts/{PayoutUniqueReference}/failure',
    'POST /v1/simulations/payouts/{PayoutUniqueReference}/release',
  ],
  partner: [
    // Issue 13: reading and cancelling a payment, and changing a recipient (how a notification of change is applied).
    'PATCH /finance/v1/payees/{payeeId}',
    'GET /finance/v1/payment_request/{paymentId}',
    'POST /finance/v1/payment_request/{paymentId}/cancel',
    'POST /finance/v1/simulations/payment_request/{paymentId}/return',
    'POST /finance/v1/simulations/payment_request/{paymentId}/notification-of-change',
    // Issue 22: a partner follows the payments it requested: webhooks and events, one operation set shared by C and E.
    'POST /finance/v1/webhooks',
    'GET /finance/v1/webhooks',
    'DELETE /finance/v1/webhooks',
    'GET /finance/v1/webhooks/{id}',
    'PATCH /finance/v1/webhooks/{id}',
    'POST /finance/v1/webhooks/{id}/rotate-secret',
    'POST /finance/v1/webhooks/{id}/test',
    'GET /finance/v1/webhooks/{id}/deliveries',
    'POST /finance/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    'GET /finance/v1/events',
    'GET /finance/v1/events/{eventId}',
  ],
  banking: [
    // Issue 13: everything group D creates can be read back; an account's transfers, statement and full numbers.
    'GET /finance/api/v1/business',
    'GET /finance/api/v1/business/{id}/accounts',
    'GET /finance/api/v1/business/{id}/accounts/{accountId}',
    'GET /finance/api/v1/business/{id}/counterparties',
    'GET /finance/api/v1/counterparty/{counterpartyId}',
    'GET /finance/api/v1/identity-verification/{verificationId}',
    'GET /finance/api/v1/transaction/{transferId}',
    'GET /finance/api/v1/account/{accountId}/transactions',
    'GET /finance/api/v1/account/{accountId}/numbers',
    'GET /finance/api/v1/account/{accountId}/ledger-entries',
    // Issue 13: the sandbox's simulations of the bank.
    'POST /finance/api/v1/simulations/inbound-transfer',
    'POST /finance/api/v1/simulations/transfers/{transferId}/settlement',
    'POST /finance/api/v1/simulations/transfers/{transferId}/return',
    'POST /finance/api/v1/simulations/transfers/{transferId}/notification-of-change',
    'POST /finance/api/v1/simulations/identity-verification/{verificationId}/decision',
  ],
  counterparty: [
    // Issue 13: counterparties read, listed and changed; the payment read and cancel shared with group C.
    'GET /finance/v1/payee',
    'GET /finance/v1/payee/{payeeId}',
    'PATCH /finance/v1/payee/{payeeId}',
    'GET /finance/v1/payment_request/{paymentId}',
    'POST /finance/v1/payment_request/{paymentId}/cancel',
    'POST /finance/v1/simulations/payment_request/{paymentId}/return',
    'POST /finance/v1/simulations/payment_request/{paymentId}/notification-of-change',
    // Issue 22: a partner follows the payments it requested: webhooks and events, one operation set shared by C and E.
    'POST /finance/v1/webhooks',
    'GET /finance/v1/webhooks',
    'DELETE /finance/v1/webhooks',
    'GET /finance/v1/webhooks/{id}',
    'PATCH /finance/v1/webhooks/{id}',
    'POST /finance/v1/webhooks/{id}/rotate-secret',
    'POST /finance/v1/webhooks/{id}/test',
    'GET /finance/v1/webhooks/{id}/deliveries',
    'POST /finance/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    'GET /finance/v1/events',
    'GET /finance/v1/events/{eventId}',
  ],
};
const tokenOperations = new Set(['POST /oauth/token', 'POST /finance/v1/generate-token', 'POST /api/v1/generate-token']);
const serverVariable: Record<SeedGroup, string> = {
  merchant: '{base_url}',
  platform: '{sandbox_url}/payouts',
  partner: '{sandbox_url}',
  banking: '{banking_url}',
  counterparty: '{sandbox_url}',
};

describe.each(Object.keys(seed) as SeedGroup[])('%s document', (group) => {
  const doc = bundles[group];
  const ops = operationsOf(group);
  const documented = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`);

  it("is OpenAPI 3.1 with the seed's server URL", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.servers[0].url).toBe(serverVariable[group]);
  });

  it.each(seed[group])('documents %s', (operation) => {
    expect(documented).toContain(operation);
  });

  it('documents nothing beyond the seed but the listed additions', () => {
    expect(documented.sort()).toEqual([...seed[group], ...additions[group]].sort());
  });

  it.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s: operationId, summary, description, tag, security, errors',
    (name, { op }) => {
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(op.summary).toBeTruthy();
      expect(op.description).toBeTruthy();
      expect(op.tags).toHaveLength(1);
      const security = op.security ?? doc.security;
      if (tokenOperations.has(name)) expect(security).toEqual([]);
      else expect(security.length).toBeGreaterThan(0);
      const required = tokenOperations.has(name) ? ['400', '401', '429', '500'] : ['400', '401', '403', '429', '500'];
      for (const status of required) {
        const response = resolve(doc, op.responses[status]);
        expect(response?.content?.['application/problem+json'], `${name} ${status}`).toBeDefined();
      }
    },
  );

  it('gives the A and B token operation the {auth_url} server', () => {
    const token = ops.find((o) => o.path === '/oauth/token');
    if (group === 'partner' || group === 'counterparty') expect(token).toBeUndefined();
    else expect(token?.op.servers?.[0]?.url).toBe('{auth_url}');
  });
});

describe('shared operations', () => {
  it('C and E define POST /finance/v1/payment_request with one contract', () => {
    const c = operationsOf('partner').find((o) => o.path === '/finance/v1/payment_request')!.op;
    const e = operationsOf('counterparty').find((o) => o.path === '/finance/v1/payment_request')!.op;
    expect(JSON.stringify(e)).toBe(JSON.stringify(c));
  });

  it('C and E define the partner webhooks and events with one contract', () => {
    const shared = Object.keys(bundles.partner.paths).filter(
      (p) => p.startsWith('/finance/v1/webhooks') || p.startsWith('/finance/v1/events'),
    );
    expect(shared).toHaveLength(8);
    for (const path of shared) expect(JSON.stringify(bundles.counterparty.paths[path])).toBe(JSON.stringify(bundles.partner.paths[path]));
  });

  it('A and B define /v1/payouts and /v1/payees/list with one contract', () => {
    // The same contract; a problem example's `instance` is the request path, each under its own group's base path.
    const asDocumented = (group: 'merchant' | 'platform', path: string) =>
      JSON.stringify(bundles[group].paths[path], (key, value) =>
        key === 'instance' && typeof value === 'string' && value.startsWith(`${basePaths[group]}/`)
          ? value.slice(basePaths[group].length)
          : value,
      );
    for (const path of ['/v1/payouts', '/v1/payees/list']) expect(asDocumented('platform', path)).toBe(asDocumented('merchant', path));
    expect(
      bundles.platform.paths['/v1/payouts'].post.responses['404'].content['application/problem+json'].examples.notFound.value.instance,
    ).toBe('/payouts/v1/payouts');
  });
});

describe('payout webhooks', () => {
  const states = ['created', 'processing', 'sent', 'completed', 'failed', 'cancelled'];
  it.each(states)('payout.%s carries the seed payload with its state', (state) => {
    for (const group of ['merchant', 'platform'] as const) {
      const doc = bundles[group];
      const op = resolve(doc, doc.webhooks[`payout.${state}`]).post;
      const schema = resolve(doc, op.requestBody.content['application/json'].schema);
      const base = resolve(doc, schema.allOf[0]);
      // The seed's fields, beside the event's envelope (issue 12) and the payout's metadata.
      expect(base.required).toEqual([
        'id',
        'type',
        'environment',
        'payout_request_id',
        'amount',
        'currency',
        'metadata',
        'timestamp',
        'state',
      ]);
      expect(Object.keys(base.properties)).toContain('reasons');
      expect(resolve(doc, base.properties.amount).type).toBe('string');
      expect(schema.allOf[1].properties.state.const).toBe(state);
    }
  });
});

describe('the console document (issue 24)', () => {
  const doc = bundles.console;
  const ops = operationsOf('console');

  it('documents the console operations at /console/api on the service origin, and nothing else', () => {
    expect(doc.servers[0].url).toBe('{base_url}');
    expect(ops.map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort()).toEqual(
      [
        'POST /console/api/sessions signInToConsole',
        'GET /console/api/session getConsoleSession',
        'DELETE /console/api/session signOutOfConsole',
        'POST /console/api/session/access-tokens createConsoleAccessToken',
        'GET /console/api/credentials listConsoleCredentials',
        'POST /console/api/credentials createConsoleCredential',
        'POST /console/api/credentials/{clientId}/roll rollConsoleCredential',
        'DELETE /console/api/credentials/{clientId} revokeConsoleCredential',
        'GET /console/api/request-logs listRequestLogs',
      ].sort(),
    );
  });

  it.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s: the session cookie (and its CSRF token on a change) secures it, sign-in alone excepted',
    (name, { method, op }) => {
      const security = op.security ?? doc.security;
      if (name === 'POST /console/api/sessions') expect(security).toEqual([]);
      else if (method === 'get') expect(security).toEqual([{ ConsoleSession: [] }]);
      else expect(security).toEqual([{ ConsoleSession: [], ConsoleCsrf: [] }]);
      for (const status of ['400', '401', '403', '429', '500']) {
        const response = resolve(doc, op.responses[status]);
        expect(response?.content?.['application/problem+json'], `${name} ${status}`).toBeDefined();
      }
    },
  );
});
