// How express-openapi-validator finds a request's operation. Its metadata step (5.6, middlewares/openapi.metadata.js,
// lookupRoute) walks every documented path on every request and, for each, lists the route map anew, reads the app's
// two routing settings, compiles the path with path-to-regexp and copies its keys: in a GET's profile it was the
// validator's largest cost. This is the same step, answer for answer (the first documented path in the validator's
// order that matches wins; the same 404, 405 and 400 for a malformed escape; the same `req.openapi`), over matchers
// compiled once per document and routing settings. test/server/validator-route-lookup.test.ts compares the two on
// every documented path of every group and on paths that must not match.
//
// It also speaks path-to-regexp 8 for the validator: the validator passes the app's 'strict routing' as `strict`,
// an option of path-to-regexp 6 that 8 no longer reads (8 calls it `trailing`, inverted, and allows a trailing slash
// by default). Translated, `/v1/payees/1/` does not match `/v1/payees/:id` on an app with strict routing, as in
// Express's own router.
//
// Installing replaces the validator's `metadataMiddleware` method, and throws when the validator's internals are not
// where 5.6 has them, so an upgrade cannot quietly lose it.
import { createRequire } from 'node:module';
import type { NextFunction, Request, Response } from 'express';

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: { name: string }[] };
type Operations = Record<string, unknown>;

/** What the metadata step reads of the validator's OpenApiContext. */
export interface OpenApiContext {
  apiDoc: { paths: Record<string, Operations> };
  expressRouteMap: Record<string, Operations & { basePath: string; _openApiRoute: string }>;
  openApiRouteMap: Record<string, Operations>;
  useRequestUrl?: boolean;
  ignoreUndocumented?: boolean;
  serial: number;
  shouldIgnoreRoute(path: string): boolean;
  isManagedRoute(path: string): boolean;
}
type ResponseDocument = { paths: Record<string, Operations> } | undefined;
type HttpError = new (options: { path: string; message: string; headers?: Record<string, string> }) => Error;
type MetadataMiddleware = (req: Request, res: Response, next: NextFunction) => void;

interface ValidatorParts {
  pathToRegexp: PathToRegexp;
  errors: { BadRequest: HttpError; NotFound: HttpError; MethodNotAllowed: HttpError };
  httpMethods: ReadonlySet<string>;
  validator: { prototype: { metadataMiddleware(context: OpenApiContext, responseApiDoc: ResponseDocument): MetadataMiddleware } };
}

/** The modules express-openapi-validator itself loads. */
function validatorParts(): ValidatorParts {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const parts = {
    pathToRegexp: fromValidator('path-to-regexp').pathToRegexp,
    errors: fromValidator('./framework/types.js'),
    httpMethods: fromValidator('./middlewares/parsers/schema.preprocessor.js').httpMethods,
    validator: fromValidator('./openapi.validator.js').OpenApiValidator,
  } as ValidatorParts;
  if (
    typeof parts.pathToRegexp !== 'function' ||
    typeof parts.errors?.NotFound !== 'function' ||
    typeof parts.errors?.MethodNotAllowed !== 'function' ||
    typeof parts.errors?.BadRequest !== 'function' ||
    !(parts.httpMethods instanceof Set) ||
    typeof parts.validator?.prototype?.metadataMiddleware !== 'function'
  )
    throw new Error('express-openapi-validator has moved the internals validator-route-lookup.ts replaces; revisit that module.');
  return parts;
}

/** A documented path, compiled for one pair of routing settings. */
interface Matcher {
  expressRoute: string;
  openApiRoute: string;
  /** The path's key in the document (the OpenAPI path without the base path). */
  pathKey: string;
  regexp: RegExp;
  keys: string[];
  /** The path's literal start (up to its first parameter), as the request must spell it: a cheaper first test. */
  start: string;
}

/** The validator's own path-to-regexp with the options it passes, as path-to-regexp 8 reads them. */
export function compileDocumentedPath(
  pathToRegexp: PathToRegexp,
  expressRoute: string,
  settings: { sensitive: boolean; strict: boolean },
): { regexp: RegExp; keys: string[] } {
  const { regexp, keys } = pathToRegexp(expressRoute, { sensitive: settings.sensitive, trailing: !settings.strict });
  return { regexp, keys: keys.map((k) => k.name) };
}

function matchersOf(context: OpenApiContext, pathToRegexp: PathToRegexp, sensitive: boolean, strict: boolean): Matcher[] {
  return Object.entries(context.expressRouteMap).map(([expressRoute, methods]) => {
    const openApiRoute = methods._openApiRoute;
    const literal = expressRoute.split(/[:*({]/)[0]!;
    return {
      expressRoute,
      openApiRoute,
      pathKey: openApiRoute.substring(methods.basePath.length),
      ...compileDocumentedPath(pathToRegexp, expressRoute, { sensitive, strict }),
      start: sensitive ? literal : literal.toLowerCase(),
    };
  });
}

/** The metadata step: sets `req.openapi` (and `req.params`) for a request that names a documented operation. */
export function routeLookup(parts: ValidatorParts, context: OpenApiContext, responseApiDoc: ResponseDocument): MetadataMiddleware {
  const { BadRequest, NotFound, MethodNotAllowed } = parts.errors;
  // By routing settings (sensitive, strict): an app may change them, and every app of a process shares a validator.
  const compiled = new Map<string, { sensitive: boolean; matchers: Matcher[] }>();
  const matchersFor = (req: Request): { sensitive: boolean; matchers: Matcher[] } => {
    const sensitive = !!req.app.enabled('case sensitive routing');
    const strict = !!req.app.enabled('strict routing');
    const key = `${sensitive}${strict}`;
    let found = compiled.get(key);
    if (!found) {
      found = { sensitive, matchers: matchersOf(context, parts.pathToRegexp, sensitive, strict) };
      compiled.set(key, found);
    }
    return found;
  };
  return (req, _res, next) => {
    // The base path is empty when the path is fully qualified (req.path starts with '').
    const path = req.path.startsWith(req.baseUrl) ? req.path : `${req.baseUrl}/${req.path}`;
    if (context.shouldIgnoreRoute(path)) return next();
    const url = context.useRequestUrl ? req.url : req.originalUrl;
    const query = url.indexOf('?');
    const target = query === -1 ? url : url.slice(0, query);
    const method = req.method.toLowerCase();
    const { sensitive, matchers } = matchersFor(req);
    // Case-insensitive routing compares the literal start in lower case (a superset test: the regexp decides).
    const spelled = sensitive ? target : target.toLowerCase();
    for (const m of matchers) {
      if (!spelled.startsWith(m.start)) continue;
      const found = m.regexp.exec(target);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      try {
        for (let i = 0; i < m.keys.length; i++) pathParams[m.keys[i]!] = decodeURIComponent(found[i + 1]!);
      } catch {
        throw new BadRequest({ path: req.path, message: `malformed uri'` });
      }
      const schema = context.apiDoc.paths[m.pathKey]?.[method];
      if (!schema) {
        // A documented path without this method.
        if (context.ignoreUndocumented) return next();
        throw new MethodNotAllowed({
          path: req.path,
          message: `${req.method} method not allowed`,
          headers: {
            Allow: Object.keys(context.openApiRouteMap[m.openApiRoute] ?? {})
              .filter((key) => parts.httpMethods.has(key.toLowerCase()))
              .join(', '),
          },
        });
      }
      const openapi: Record<string, unknown> = {
        expressRoute: m.expressRoute,
        openApiRoute: m.openApiRoute,
        pathParams,
        schema,
        serial: context.serial,
      };
      if (responseApiDoc) openapi._responseSchema = responseApiDoc.paths[m.pathKey]?.[method];
      (req as { openapi?: unknown }).openapi = openapi;
      req.params = pathParams;
      return next();
    }
    if (context.isManagedRoute(path) && !context.ignoreUndocumented) throw new NotFound({ path: req.path, message: 'not found' });
    next();
  };
}

const installed = Symbol.for('payout-service.validator-route-lookup');

/** Replaces the validator's metadata step with routeLookup, once per process. */
export function installValidatorRouteLookup(): void {
  const parts = validatorParts();
  const prototype = parts.validator.prototype as ValidatorParts['validator']['prototype'] & { [installed]?: true };
  if (prototype[installed]) return;
  prototype.metadataMiddleware = (context, responseApiDoc) => routeLookup(parts, context, responseApiDoc);
  prototype[installed] = true;
}

/** The validator's own metadata step, and its parts, for the test that compares the two. */
export function validatorMetadataInternals(): ValidatorParts & {
  original: (context: OpenApiContext, responseApiDoc: ResponseDocument) => MetadataMiddleware;
} {
  const parts = validatorParts();
  const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  return { ...parts, original: fromValidator('./middlewares/openapi.metadata.js').applyOpenApiMetadata };
}
