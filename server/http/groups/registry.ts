// The groups the service serves, in mounting order: each with its bundled document, generated route
// table, handlers and security (in production, without the sandbox's simulations). C and E share
// POST /finance/v1/payment_request: the first mounted answers.
import { readFileSync } from 'node:fs';
import type { Request } from 'express';
import { routeTables, type Group, type RouteEntry } from '../../../generated/index.js';
import type { Environment } from '../../platform/environment.js';
import type { GroupMount } from '../mount-group.js';
import type { OperationHandler } from '../operation-handler.js';
import { fromPackageRoot } from '../../platform/package-root.js';
import { Problem } from '../../platform/problems.js';
import { isSandbox, isSandboxOnlyOperation } from '../../domain/sandbox.js';
import type { RequestContext } from '../../domain/auth/principal.js';
import { contextOf, merchantContext, partnerContext, type MerchantContext, type PartnerContext } from '../request-context.js';
import type { Services } from '../../domain/services.js';
import { merchantHandlers } from './merchant/handlers.js';
import { platformHandlers } from './platform/handlers.js';
import { bankingHandlers } from './banking/handlers.js';
import { partnerHandlers } from './partner/handlers.js';
import { counterpartyHandlers } from './counterparty/handlers.js';
import { consoleHandlers } from './console/handlers.js';
import { consoleOrigin, consoleSecurity, consoleSignInContext } from '../console-session.js';

const documents = new Map<Group, object>();

/** The group's bundled document, read once per process: the validator built from it is kept by document
 * (mount-group.ts), so every app of a process shares one. Nothing writes to it. */
export function loadDocument(group: Group): object {
  let document = documents.get(group);
  if (!document) {
    document = JSON.parse(readFileSync(fromPackageRoot('generated', group, 'openapi.json'), 'utf8')) as object;
    documents.set(group, document);
  }
  return document;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const productionDocuments = new Map<Group, object>();

/**
 * What the group serves in an environment: in production, its document and routes without the simulations. Not
 * documented, a simulation's path is not the group's: it goes on like any unknown path and gets the same answer
 * (app.ts), whatever the method, token or body. One document object per group, so the validator built from it is
 * kept (mount-group.ts).
 */
function served(group: Group, environment: Environment): { document: object; routes: readonly RouteEntry[] } {
  const { routes } = routeTables[group];
  if (isSandbox(environment)) return { document: loadDocument(group), routes };
  let document = productionDocuments.get(group);
  if (!document) {
    const copy = structuredClone(loadDocument(group)) as { paths: Record<string, Record<string, { operationId?: string }>> };
    for (const [path, item] of Object.entries(copy.paths)) {
      for (const method of methods) if (isSandboxOnlyOperation(item[method]?.operationId ?? '')) delete item[method];
      if (!methods.some((method) => method in item)) delete copy.paths[path];
    }
    document = copy;
    productionDocuments.set(group, document);
  }
  return { document, routes: routes.filter((r) => !isSandboxOnlyOperation(r.operationId)) };
}

/** Each caller kind's security handler: the verified principal of the right kind as the group's context, else 403. */
function authenticators(s: Services): {
  merchant: (req: Request) => Promise<MerchantContext>;
  partner: (req: Request) => Promise<PartnerContext>;
} {
  return {
    merchant: async (req) => {
      const principal = await (req.res?.locals.principal ?? s.tokens.verify(req.headers.authorization));
      if (principal.kind !== 'merchant')
        throw new Problem('forbidden', 'Merchant and banking operations need a merchant token from /oauth/token.');
      return merchantContext(req, principal);
    },
    partner: async (req) => {
      const principal = await (req.res?.locals.principal ?? s.tokens.verify(req.headers.authorization));
      if (principal.kind !== 'partner')
        throw new Problem(
          'forbidden',
          'Partner operations need a partner token from /finance/v1/generate-token or /api/v1/generate-token.',
        );
      return partnerContext(req, principal);
    },
  };
}

type Handlers = Readonly<Record<string, OperationHandler<never, RequestContext>>>;

export function groupMounts(
  s: Services,
  validateResponses: boolean,
  environment: Environment,
  publicOrigin?: string,
): (GroupMount<RequestContext> & { group: Group })[] {
  const auth = authenticators(s);
  const anonymous = (req: Request) => contextOf(req);
  // Mounting order: the first group that documents a path answers it (C before E for payment_request). The console
  // authenticates by its session cookie, not a bearer token, and refuses other sites' requests before reading them.
  const table: [Group, unknown, GroupMount<RequestContext>['security'], Partial<GroupMount<RequestContext>>?][] = [
    ['merchant', merchantHandlers(s), { MerchantOAuth: auth.merchant }],
    ['platform', platformHandlers(s), { MerchantOAuth: auth.merchant }],
    ['banking', bankingHandlers(s), { BankingJWT: auth.merchant }],
    ['partner', partnerHandlers(s), { PartnerJWT: auth.partner }],
    ['counterparty', counterpartyHandlers(s), { PartnerJWT: auth.partner }],
    [
      'console',
      consoleHandlers(s),
      consoleSecurity(s, publicOrigin),
      { anonymous: (req) => consoleSignInContext(req, publicOrigin), guard: consoleOrigin(publicOrigin) },
    ],
  ];
  return table.map(([group, handlers, security, own]) => ({
    group,
    ...served(group, environment),
    basePath: routeTables[group].basePath,
    handlers: handlers as Handlers,
    security,
    anonymous,
    validateResponses,
    onContractViolation: (violation) => s.log.error({ violation }, 'response violates the contract'),
    ...own,
  }));
}
