// mountGroup: one call puts an API group on an Express app. express-openapi-validator on the group's
// bundled document validates every request (and, when asked, every response), the group's security
// handlers authenticate before validation, and each route of the generated table runs its typed handler.
// Routes live under the group's base path; paths a group does not document pass through to the next group
// (ignoreUndocumented), so all groups share one origin and the first that documents a path answers it.
import express, { type Express, type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { authProblems } from './errors.js';
import type { OperationHandler } from './operation-handler.js';
import { Problem } from './problem.js';
import { cacheValidatorRouteMatchers } from './route-matcher-cache.js';

export interface RouteEntry {
  readonly operationId: string;
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  readonly path: string;
  readonly expressPath: string;
  readonly atOrigin: boolean;
  readonly secured: boolean;
}

export interface GroupMount<Ctx> {
  /** The bundled document (generated/<group>/openapi.json). */
  document: object;
  /** generated/<group>/routes.ts: basePath and routes. */
  basePath: string;
  routes: readonly RouteEntry[];
  handlers: Readonly<Record<string, OperationHandler<never, Ctx>>>;
  /** One per security scheme of the document: resolves the caller's context or throws a 401/403 Problem. */
  security: Readonly<Record<string, (req: Request) => Promise<Ctx>>>;
  /** The context of unsecured operations (token issuance). */
  anonymous: (req: Request) => Ctx;
  /** Validate responses against the document too (on in development and tests). */
  validateResponses: boolean;
}

const contexts = new WeakMap<Request, unknown>();

export function mountGroup<Ctx>(app: Express, mount: GroupMount<Ctx>): void {
  cacheValidatorRouteMatchers();
  // An operation with its own `servers` (the token issuer) is served at the origin. The validator only sees
  // paths under the document's base path, so only a group whose base path is the origin can serve it; the
  // others (B's copy of /oauth/token) leave it to that group rather than answer it unvalidated.
  const routes = mount.routes.filter((r) => !r.atOrigin || mount.basePath === '');
  const missing = routes.filter((r) => typeof mount.handlers[r.operationId] !== 'function');
  if (missing.length > 0) throw new Error(`mountGroup: no handler for ${missing.map((r) => r.operationId).join(', ')}`);

  const security = Object.fromEntries(
    Object.entries(mount.security).map(([scheme, authenticate]) => [
      scheme,
      async (req: Request) => {
        try {
          contexts.set(req, await authenticate(req));
          return true;
        } catch (err) {
          if (err instanceof Problem) authProblems.set(req, err);
          throw err;
        }
      },
    ]),
  );

  const router = express.Router();
  router.use(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(mount.document) as never,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
      validateResponses: mount.validateResponses ? { allErrors: true } : false,
      validateSecurity: { handlers: security },
      ignoreUndocumented: true,
      validateFormats: true,
    }),
  );
  for (const route of routes) {
    const handler = mount.handlers[route.operationId] as OperationHandler<never, Ctx>;
    const numericParams = numericPathParams(mount.document, route);
    const path = (route.atOrigin ? '' : mount.basePath) + route.expressPath;
    const documented = (route.atOrigin ? '' : mount.basePath) + route.path;
    const run: RequestHandler = async (req, res, next) => {
      // Only a request the validator matched to this very operation (and so authenticated and validated)
      // reaches the handler. Express alone would also send HEAD to a GET handler, and GET /v1/payees/list to
      // GET /v1/payees/{id}, which the validator ignores as undocumented: neither would be checked at all.
      if (req.method !== route.method.toUpperCase() || (req as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute !== documented) return next();
      const context = (contexts.get(req) as Ctx | undefined) ?? mount.anonymous(req);
      const result = (await handler({
        params: coerce(req.params, numericParams) as never,
        query: req.query as never,
        body: req.body as never,
        headers: req.headers as Record<string, string | undefined>,
        context,
      })) as { status: number; body?: unknown; headers?: Record<string, string> };
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      res.status(result.status);
      if (result.body === undefined) res.end();
      else res.json(result.body);
    };
    router[route.method](path, run);
  }
  // Only requests that may be this group's enter its router: the validator looks a request up by compiling
  // each documented path in turn, so a request of the last group mounted would pay for every other group's.
  // A superset test on the literal start of each route (Express matches paths case-insensitively).
  const starts = [...new Set(routes.map((r) => ((r.atOrigin ? '' : mount.basePath) + r.expressPath).split(':')[0]!.toLowerCase()))];
  app.use((req, res, next) => {
    const path = req.path.toLowerCase();
    if (starts.some((start) => path.startsWith(start))) router(req, res, next);
    else next();
  });
}

type Json = Record<string, unknown>;
const deref = (doc: Json, node: unknown): Json => {
  let n = node as Json;
  while (n && typeof n.$ref === 'string') {
    n = (n.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Json;
  }
  return n;
};

/** Names of the route's path parameters whose schema is an integer or number: Express hands them over as strings. */
function numericPathParams(document: object, route: RouteEntry): string[] {
  const doc = document as Json;
  const item = deref(doc, (doc.paths as Json)[route.path]);
  const op = deref(doc, item[route.method]);
  const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => deref(doc, p));
  return params
    .filter((p) => p.in === 'path' && ['integer', 'number'].includes(String(deref(doc, p.schema).type)))
    .map((p) => String(p.name));
}

function coerce(params: Record<string, string | string[]>, numeric: string[]): Record<string, string | string[] | number> {
  if (numeric.length === 0) return params;
  const out: Record<string, string | string[] | number> = { ...params };
  for (const name of numeric) if (name in out) out[name] = Number(out[name]);
  return out;
}
