// The front of a group's mock: what `npm run mock` answers before Prism does. Prism checks requests its own way
// and answers a bad one with whatever example the document holds for some 4xx (a 422 business-rule example for a
// negative Amount), so the front refuses what breaks the contract exactly as the service does, with the service's
// own code: server/http/mount-group.ts validates the request against the same bundle (express-openapi-validator,
// the same options, the same extra input checks), server/domain/auth/bearer-header.ts reads the Authorization header,
// and server/http/errors.ts formats the problem. Only a request the service would have handed to a handler goes
// on to Prism, whose answer (a documented example, any other one picked with `Prefer: code=N` or `example=NAME`,
// or one generated from the schemas) is passed back as it is.
//
// Tokens: the mock's token operations are answered by Prism; the front notes each access token they issue, and
// a secured operation takes only a token one of the mocks started together issued (any kind, see the README).
// Dynamic mode: a generated page of a list always says it is the last (lastPage below), so pagers end.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express, { type Express, type Request } from 'express';
import { routeTables, type Group } from '../../generated/index.js';
import { deref } from '../contract/document.js';
import { bearerCredentialOf, invalidToken, missingToken } from '../../server/domain/auth/bearer-header.js';
import { clientCredentialsOf } from '../../server/domain/auth/client-credentials.js';
import { oauthTokenPath } from '../../server/http/oauth-token-errors.js';
import { allowedMethods } from '../../server/http/allowed-methods.js';
import { notFound, problemHandler } from '../../server/http/errors.js';
import { chain } from '../../server/http/middleware-chain.js';
import { groupHandler, type GroupMount } from '../../server/http/mount-group.js';
import type { OperationHandler } from '../../server/http/operation-handler.js';
import { bodyParsers } from '../../server/http/request-body.js';
import { requestId } from '../../server/http/request-id.js';
import { requestTarget } from '../../server/http/request-target.js';
import { noSession } from '../../server/domain/console/sessions.js';
import { Problem } from '../../server/platform/problems.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Node's fetch as it was when the front loaded: a test that spies on globalThis.fetch to see what a client sends
// should not see the front's own requests to Prism.
const fetchFromPrism = globalThis.fetch;

type Json = Record<string, any>;

/** What a request carries to the proxy: its target as sent (path and query) and the headers Prism reads. */
interface Forward {
  url: string;
  headers: Record<string, string>;
}

/** Access tokens the mocks' token operations issued: shared by the fronts of one startMocks(). */
export type IssuedTokens = Set<string>;

export interface MockFrontOptions {
  group: Group;
  /** Origin of the group's Prism mock. */
  prismUrl: string;
  issuedTokens: IssuedTokens;
  /** Prism generates answers from the schemas (`--dynamic`). */
  dynamic: boolean;
  /** Where an unexpected failure is reported (it is answered 500 like the service's). */
  log?: (line: string) => void;
}

/** Whether a schema (after $refs, through allOf/oneOf/anyOf) declares a property: `nextCursor` marks a cursor
 * list's page, `totalCount` a numbered page's. */
function declares(doc: Json, node: unknown, property: string): boolean {
  const schema = deref(doc, node);
  if (!schema || typeof schema !== 'object') return false;
  if (schema.properties && property in schema.properties) return true;
  return [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].some((s: unknown) => declares(doc, s, property));
}

/** Whether a response schema is a cursor list's page. */
export const isCursorList = (doc: Json, node: unknown): boolean => declares(doc, node, 'nextCursor');

/**
 * A generated page made the last one, so that a client's pager ends against the dynamic mock: a cursor page's
 * `nextCursor` null, a numbered page's `totalCount` what it holds (the pagers stop once they have seen as many).
 */
function lastPage(doc: Json, schema: unknown): ((page: Json) => void) | undefined {
  if (isCursorList(doc, schema))
    return (page) => {
      page.nextCursor = null;
    };
  if (declares(doc, schema, 'totalCount'))
    return (page) => {
      if (Array.isArray(page.data)) page.totalCount = page.data.length;
    };
  return undefined;
}

/** The bundle as the front validates it: every path at the mock's root, as Prism serves it (Prism ignores the path
 * of `servers`, B's `/payouts` included). */
function frontDocument(group: Group): Json {
  const doc = JSON.parse(readFileSync(`${root}generated/${group}/openapi.json`, 'utf8')) as Json;
  doc.servers = [{ url: '/' }];
  return doc;
}

const documents = new Map<Group, Json>();
/** One document object per group for the process: the validator built from it is kept by document (mount-group.ts). */
function documentOf(group: Group): Json {
  let doc = documents.get(group);
  if (!doc) {
    doc = frontDocument(group);
    documents.set(group, doc);
  }
  return doc;
}

// Headers Prism reads or that describe the body; the rest of what the caller sent does not change its answer.
const forwarded = ['authorization', 'prefer', 'accept', 'content-type', 'idempotency-key', 'x-request-id', 'cookie', 'x-csrf-token'];
// Hop-by-hop and framing headers of Prism's answer: the front frames its own.
const notPassedBack = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

function forwardOf(req: Request): Forward {
  const headers: Record<string, string> = {};
  for (const name of forwarded) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { url: req.originalUrl, headers };
}

/** One operation's handler: the validated request, sent on to Prism, and Prism's answer. */
function proxy(options: MockFrontOptions, doc: Json, method: string, path: string): OperationHandler<never, Forward> {
  const op = doc.paths[path][method] as Json;
  const secured = (op.security ?? doc.security ?? []).length > 0;
  const lastPages = Object.fromEntries(
    Object.entries<Json>(op.responses ?? {}).map(([status, r]) => [
      status,
      lastPage(doc, deref(doc, r)?.content?.['application/json']?.schema),
    ]),
  );
  // The token endpoint's one rule a schema cannot state (credentials by Basic or in the body, not both, not
  // neither) is the service's own check, so the mock refuses what the service refuses.
  const checkClient = path === oauthTokenPath;
  return async ({ body, context }) => {
    if (checkClient) clientCredentialsOf(context.headers.authorization, (body ?? {}) as { client_id?: string; client_secret?: string });
    const form = context.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
    const { 'content-type': _sentAs, ...headers } = context.headers;
    let sent: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      sent = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    }
    const answer = await fetchFromPrism(options.prismUrl + context.url, { method: method.toUpperCase(), headers, body: sent });
    const text = await answer.text();
    const json = text && /json/i.test(answer.headers.get('content-type') ?? '') ? (JSON.parse(text) as Json) : undefined;
    if (!secured && answer.ok && typeof json?.access_token === 'string') options.issuedTokens.add(json.access_token);
    const endPage = lastPages[String(answer.status)];
    if (options.dynamic && answer.ok && endPage && json && typeof json === 'object') endPage(json);
    const passed: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!notPassedBack.has(name)) passed[name] = value;
    });
    // The typed result speaks of documented statuses; Prism only answers those.
    return { status: answer.status, body: json ?? (text || undefined), headers: passed } as never;
  };
}

/** The cookies of a Cookie header, by name. */
function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) cookies[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return cookies;
}

/**
 * The console's schemes (openapi/console/): a mock has no sessions, so any session cookie opens one and any CSRF
 * token is its own; what is checked is that they are sent, answered as the service answers their absence.
 */
function consoleScheme(scheme: Json, schemes: Json[]): (req: Request) => Promise<Forward> {
  // The CSRF header, which the cookie's handler also asks for on a change (as the service's does), so that its
  // absence is the 403 the service answers, not the validator's generic 401.
  const csrf = schemes.find((s) => s.type === 'apiKey' && s.in === 'header')?.name as string | undefined;
  const changes = (req: Request) => !['GET', 'HEAD'].includes(req.method);
  return async (req) => {
    if (scheme.in === 'cookie' && !cookiesOf(req.headers.cookie)[scheme.name]) throw noSession();
    const header = scheme.in === 'header' ? String(scheme.name) : changes(req) ? csrf : undefined;
    if (header !== undefined && typeof req.headers[header.toLowerCase()] !== 'string')
      throw new Problem('forbidden', `Send the session's CSRF token in the ${header} header.`);
    return forwardOf(req);
  };
}

/** The front of one group's mock as an Express app. */
export function createMockFront(options: MockFrontOptions): Express {
  const doc = documentOf(options.group);
  const { routes } = routeTables[options.group];
  const authenticate = async (req: Request): Promise<Forward> => {
    const credential = bearerCredentialOf(req.headers.authorization);
    if ('missing' in credential) throw missingToken();
    if ('malformed' in credential) throw invalidToken('The access token is not valid.');
    if (!options.issuedTokens.has(credential.token)) {
      throw invalidToken("The access token was not issued by this mock: get one from the mock's token operation.");
    }
    return forwardOf(req);
  };
  const mount: GroupMount<Forward> = {
    document: doc,
    basePath: '',
    routes,
    handlers: Object.fromEntries(routes.map((r) => [r.operationId, proxy(options, doc, r.method, r.path)])),
    security: Object.fromEntries(
      Object.entries<Json>(doc.components?.securitySchemes ?? {}).map(([name, scheme]) => [
        name,
        scheme.type === 'apiKey' ? consoleScheme(scheme, Object.values(doc.components.securitySchemes)) : authenticate,
      ]),
    ),
    anonymous: forwardOf,
    validateResponses: false,
    // The console's cookie scheme: the validator looks for the cookie in `req.cookies`.
    guard: (req, _res, next) => {
      (req as Request & { cookies?: Record<string, string> }).cookies = cookiesOf(req.headers.cookie);
      next();
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // As the service routes (server/http/app.ts): paths as written.
  app.enable('case sensitive routing');
  app.enable('strict routing');
  app.use(chain([requestId, requestTarget, ...bodyParsers, groupHandler(mount)]));
  app.use(notFound(allowedMethods([mount])));
  app.use(problemHandler((entry, message) => options.log?.(`${message}: ${JSON.stringify(entry)}`)));
  return app;
}

/** Listens on host:port and resolves with the server once it does. */
export function listenFront(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
