// mountGroup: one call puts an API group on an Express app. express-openapi-validator on the group's
// bundled document validates every request (and, when asked, every response), the group's security
// handlers authenticate before validation, and each route of the generated table runs its typed handler.
// Routes live under the group's base path; paths a group does not document pass through to the next group
// (ignoreUndocumented), so all groups share one origin and the first that documents a path answers it.
import type { Express, Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RouteEntry } from '../../generated/index.js';
import type { ContractViolation } from './locals.js';
import { chain } from './middleware-chain.js';
import { inputFaults, inputRules } from './operation-inputs.js';
import type { OperationHandler } from './operation-handler.js';
import { Problem, invalidRequest } from '../platform/problems.js';
import { installValidatorRouteLookup } from './validator-route-lookup.js';
import { installValidatorStartupShortcuts } from './validator-startup.js';
import { illFormedBodyStrings, illFormedQueryStrings } from './well-formed-text.js';

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
  /** Runs before the validator reads the request (the console's refusal of other sites' requests). */
  guard?: RequestHandler;
  /** Validate responses against the document too (on in development and tests). */
  validateResponses: boolean;
  /** Told of a write's response that breaks the contract; the response is sent all the same (see below). */
  onContractViolation?: (violation: ContractViolation) => void;
}

/** Reads change nothing, so a read whose response breaks the contract can fail; a write has committed. HEAD
 * reaches the router as GET (app.ts). */
const changesNothing = (method: string) => method === 'GET';

type GroupSecurity = Record<string, (req: Request) => Promise<boolean>>;

/** Validators by document and by whether they check responses. Building one compiles a schema per operation and
 * status, each over the whole of `components` (most of a fresh app's first requests): one per process, however
 * many apps it starts (a test worker starts dozens). Nothing in it belongs to one app: security handlers and
 * the contract-violation report are looked up on the request. */
const validators = new WeakMap<object, Map<boolean, RequestHandler[]>>();

function validatorFor(document: object, validateResponses: boolean, schemes: string[]): RequestHandler[] {
  const byDocument = validators.get(document) ?? new Map<boolean, RequestHandler[]>();
  validators.set(document, byDocument);
  const known = byDocument.get(validateResponses);
  if (known) return known;
  const handlers = Object.fromEntries(
    schemes.map((scheme) => [scheme, (req: Request) => (req.res!.locals.groupSecurity as GroupSecurity)[scheme]!(req)]),
  );
  const middleware = OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as never,
    // Checked against the OpenAPI schema by test/server/validator-startup.test.ts, not at every start.
    validateApiSpec: false,
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
    // A response that breaks its schema is our defect. After a read it answers 500 (nothing changed). After a
    // write it is sent as produced and reported: the change is committed, and a 500 would invite a retry
    // that pays twice.
    validateResponses: validateResponses
      ? {
          allErrors: true,
          onError: (err: { errors?: unknown }, _body: unknown, req: Request) => {
            if (changesNothing(req.method)) throw err;
            req.res?.locals.onContractViolation?.({
              method: req.method,
              path: req.originalUrl,
              status: req.res?.statusCode ?? 0,
              errors: err.errors,
            });
          },
        }
      : false,
    validateSecurity: { handlers },
    ignoreUndocumented: true,
    // 'full': 2023-02-30, a..b@example.com and hour 25 are refused, not only malformed shapes.
    validateFormats: true,
    ajvFormats: { mode: 'full' },
  }) as unknown as RequestHandler[];
  byDocument.set(validateResponses, middleware);
  return middleware;
}

/** Middleware built by its first request. Building a group's validator compiles its document, about half a second
 * of CPU: built at start, the five groups' delayed the service's first answer by seconds (README: "Fast start"). */
function lazily(build: () => RequestHandler[]): RequestHandler {
  let built: RequestHandler | undefined;
  return (req, res, next) => {
    built ??= chain(build());
    built(req, res, next);
  };
}

export function mountGroup<Ctx>(app: Express, mount: GroupMount<Ctx>): void {
  app.use(groupHandler(mount));
}

/** The group as one handler (app.ts chains the five): requests that are not its own go on to `next`. */
export function groupHandler<Ctx>(mount: GroupMount<Ctx>): RequestHandler {
  installValidatorRouteLookup();
  installValidatorStartupShortcuts();
  // An operation with its own `servers` (the token issuer) is served at the origin. The validator only sees
  // paths under the document's base path, so only a group whose base path is the origin can serve it; the
  // others (B's copy of /oauth/token) leave it to that group rather than answer it unvalidated.
  const routes = mount.routes.filter((r) => !r.atOrigin || mount.basePath === '');
  const missing = routes.filter((r) => typeof mount.handlers[r.operationId] !== 'function');
  if (missing.length > 0) throw new Error(`mountGroup: no handler for ${missing.map((r) => r.operationId).join(', ')}`);

  const security: GroupSecurity = Object.fromEntries(
    Object.entries(mount.security).map(([scheme, authenticate]) => [
      scheme,
      async (req: Request) => {
        try {
          req.res!.locals.context = await authenticate(req);
          return true;
        } catch (err) {
          if (err instanceof Problem) req.res!.locals.authProblem = err;
          throw err;
        }
      },
    ]),
  );

  // The validator is shared by every app of the process (validatorFor); what is this app's reaches it through
  // the request.
  const setLocals: RequestHandler = (_req, res, next) => {
    res.locals.groupSecurity = security;
    res.locals.onContractViolation = mount.onContractViolation;
    next();
  };
  const validate = lazily(() => validatorFor(mount.document, mount.validateResponses, Object.keys(mount.security)));
  // Each operation by what the validator matched (its method and documented path), so a request goes straight
  // to its handler rather than past every route of the group in turn.
  const operations = new Map<string, RequestHandler>();
  for (const route of routes) {
    const handler = mount.handlers[route.operationId] as OperationHandler<never, Ctx>;
    const prefix = route.atOrigin ? '' : mount.basePath;
    const rules = inputRules(mount.document, route.path, route.method, prefix);
    const documented = prefix + route.path;
    const run: RequestHandler = async (req, res) => {
      // What the validator does not hold: numbers spelled other than in decimal, a missing body, lone surrogates.
      const faults = inputFaults(req, rules);
      faults.push(...illFormedQueryStrings(req.query));
      if (req.body !== undefined) faults.push(...illFormedBodyStrings(req.body));
      if (faults.length > 0) throw invalidRequest(faults);
      const context = (res.locals.context as Ctx | undefined) ?? mount.anonymous(req);
      const result = (await handler({
        params: ((req as { openapi?: { pathParams?: object } }).openapi?.pathParams ?? {}) as never,
        query: req.query as never,
        body: req.body as never,
        headers: req.headers as Record<string, string | undefined>,
        context,
      })) as { status: number; body?: unknown; headers?: Record<string, string>; replayed?: boolean };
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(result.status);
      if (result.body === undefined) res.end();
      else res.json(result.body);
    };
    operations.set(`${route.method.toUpperCase()} ${documented}`, run);
  }
  // Only a request the validator matched to an operation (and so authenticated and validated) reaches a handler,
  // and only that operation's. HEAD reaches here as GET (app.ts); a path the validator ignores as undocumented
  // (GET /v1/payees/list beside /v1/payees/{id}) has no match and goes on to the next group.
  const dispatch: RequestHandler = (req, res, next) => {
    const matched = (req as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
    const run = matched === undefined ? undefined : operations.get(`${req.method} ${matched}`);
    if (!run) return next();
    return run(req, res, next);
  };
  const group = chain(mount.guard ? [setLocals, mount.guard, validate, dispatch] : [setLocals, validate, dispatch]);
  // Only requests that may be this group's enter its chain: the validator looks a request up by compiling
  // each documented path in turn, so a request of the last group mounted would pay for every other group's.
  // A superset test on the literal start of each route, case-insensitive where the app's routing is.
  const starts = [...new Set(routes.map((r) => ((r.atOrigin ? '' : mount.basePath) + r.expressPath).split(':')[0]!))];
  const folded = starts.map((start) => start.toLowerCase());
  return (req, res, next) => {
    const sensitive = req.app.enabled('case sensitive routing');
    const path = sensitive ? req.path : req.path.toLowerCase();
    if ((sensitive ? starts : folded).some((start) => path.startsWith(start))) group(req, res, next);
    else next();
  };
}
