// Turns every failure into an RFC 9457 problem response: thrown Problems, express-openapi-validator errors
// (with the fields at fault), body-parser errors (http/request-body.ts), and anything unexpected (500, logged, no
// stack trace out).
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { missingToken } from '../domain/auth/bearer-header.js';
import { type Challenge, Problem, invalidRequest, missingBody, type FieldError } from '../platform/problems.js';
import { cutToCodePoints } from '../platform/text/code-points.js';
import './locals.js';
import { asOAuthError, problemMediaType } from './oauth-token-errors.js';
import { bodyRefusal } from './request-body.js';
import { requestIdOf } from './request-id.js';

interface ValidatorFieldError {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface ValidatorError {
  status?: number;
  message?: string;
  errors?: ValidatorFieldError[];
  type?: string;
  headers?: Record<string, string>;
}

/** `/body/address/city` → pointer `#/address/city`; `/query/PageSize` → parameter; `/headers/x` → header.
 * Names and messages can echo what the caller sent (an unknown parameter's name); they are cut to what the
 * contract's ProblemFieldError allows, so that a hostile request still gets a conforming problem. */
function fieldOf(path: string, message: string): FieldError {
  const [, where = '', ...rest] = path.split('/');
  const name = rest.join('/');
  const detail = cutToCodePoints(message.replace(/[\x00-\x1f\x7f]/g, ' '), 500) || 'is not valid';
  const safe = (allowed: RegExp) => name.replace(allowed, '_').slice(0, 100) || '_';
  if (where === 'body') return { pointer: cutToCodePoints(`#${name ? `/${name}` : ''}`, 500), detail };
  if (where === 'headers') return { header: safe(/[^A-Za-z0-9-]/g), detail };
  // A parameter is named by its name alone: an item of a repeated one (`/query/Type/0`) is still `Type`.
  if (where === 'query' || where === 'params' || where === 'path')
    return { parameter: (rest[0] ?? '').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || '_', detail };
  return { pointer: '#', detail };
}

/** The request path as the problem's `instance`: a valid URI reference of at most 2,048 characters, however
 * the caller spelled it (stray `%`, characters a URI may not hold). */
function instanceOf(path: string): string {
  const encoded = path.replace(/%(?![0-9A-Fa-f]{2})/g, '%25').replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c));
  return encoded.length <= 2048 ? encoded : encoded.slice(0, 2048).replace(/%[0-9A-Fa-f]?$/, '');
}

/** Ajv can report one field more than once (a failed if/then names it again): the first report stands. */
function onePerField(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = e.pointer !== undefined ? `p${e.pointer}` : e.parameter !== undefined ? `q${e.parameter}` : `h${e.header}`;
    return !seen.has(key) && seen.add(key);
  });
}

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Whether `name` breaks the rule an Ajv message quotes (the rules a `propertyNames` schema holds here). */
function breaks(name: string, message: string): boolean {
  const length = [...name].length;
  const limit = /^must NOT have (more|fewer) than (\d+) characters$/.exec(message);
  if (limit) return limit[1] === 'more' ? length > Number(limit[2]) : length < Number(limit[2]);
  const pattern = /^must match pattern "(.*)"$/s.exec(message);
  return pattern ? !new RegExp(pattern[1]!, 'u').test(name) : false;
}

/**
 * A refused property name (`propertyNames`, e.g. a metadata key over 40 characters) is reported by the validator at
 * its object, with the rules it broke but without the name (express-openapi-validator drops Ajv's `propertyName`).
 * The names are found again in the body by those rules, so the problem points at `#/metadata/<key>`.
 */
function namePropertyNames(errors: ValidatorFieldError[], body: unknown): ValidatorFieldError[] {
  const objects = new Set(errors.filter((e) => e.errorCode === 'propertyNames.openapi.validation').map((e) => e.path ?? ''));
  if (objects.size === 0) return errors;
  const named: ValidatorFieldError[] = [];
  for (const e of errors) {
    const path = e.path ?? '';
    if (!objects.has(path) || !path.startsWith('/body')) {
      named.push(e);
      continue;
    }
    // The rule's own report (maxLength, pattern...) names the keys; the summary ("property name must be valid") adds nothing.
    if (e.errorCode === 'propertyNames.openapi.validation') continue;
    let object: unknown = body;
    for (const segment of path.split('/').slice(2)) object = (object as Record<string, unknown> | undefined)?.[unescapePointer(segment)];
    const names = object !== null && typeof object === 'object' ? Object.keys(object).filter((n) => breaks(n, e.message ?? '')) : [];
    if (names.length === 0) named.push(e);
    for (const n of names) named.push({ ...e, path: `${path}/${escapePointer(n)}`, message: `key ${e.message ?? 'is not valid'}` });
  }
  return named;
}

type OpenApiRequest = Request & { openapi?: { schema?: { requestBody?: { content?: Record<string, unknown> } } } };

/** Whether the request carried a body: a length above zero, or a chunked one that body parsing found non-empty. */
const hasBody = (req: Request): boolean =>
  req.body !== undefined ||
  (req.headers['transfer-encoding'] !== undefined && req.res?.locals.emptyBody !== true) ||
  Number(req.headers['content-length'] ?? 0) > 0;

function fromValidator(err: ValidatorError, req: Request): Problem {
  switch (err.status) {
    case 400: {
      // Ajv reports a failed if/then both as the missing fields and as 'must match "then" schema'; the first is enough.
      const errors = onePerField(
        namePropertyNames(err.errors ?? [], req.body)
          .filter((e) => !/^must match "(then|else)" schema$/.test(e.message ?? ''))
          .map((e) =>
            /required property 'body'/.test(e.message ?? '') ? missingBody : fieldOf(e.path ?? '', e.message ?? 'is not valid'),
          ),
      );
      return invalidRequest(errors);
    }
    case 401:
      return missingToken();
    case 404:
      return new Problem('not-found', `No operation at ${req.method} ${req.path}.`);
    case 405:
      return new Problem('method-not-allowed', `${req.path} does not support ${req.method}.`);
    case 413:
      return new Problem('payload-too-large', 'Request bodies are limited to 1048576 bytes.');
    case 415: {
      // Without any body the fault is the missing body, not its type.
      if (!hasBody(req)) return invalidRequest([missingBody]);
      const accepted = Object.keys((req as OpenApiRequest).openapi?.schema?.requestBody?.content ?? { 'application/json': 0 }).join(' or ');
      const sent = req.headers['content-type']
        ? `${cutToCodePoints(req.headers['content-type'], 100)} is`
        : 'A body without a Content-Type is';
      return new Problem('unsupported-media-type', `${sent} not accepted here; send the body as ${accepted}.`);
    }
    default:
      return new Problem('internal-error', "The failure was logged with this request's id.");
  }
}

/** A challenge as RFC 9110 §11.6.1 writes it (RFC 6750 §3 for Bearer's error and error_description). */
export function challengeHeader(c: Challenge): string {
  // error_description may not hold `"` or `\` (RFC 6750 §3).
  const quoted = (s: string) => `"${s.replace(/["\\]/g, "'")}"`;
  const params = [`realm=${quoted(c.realm)}`];
  if (c.error) params.push(`error=${quoted(c.error)}`);
  if (c.description) params.push(`error_description=${quoted(c.description)}`);
  if (c.formAction) params.push(`form-action=${quoted(c.formAction)}`);
  return `${c.scheme} ${params.join(', ')}`;
}

export function sendProblem(res: Response, req: Request, refusal: Problem): void {
  if (res.headersSent) return;
  const problem = asOAuthError(req, refusal);
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) res.setHeader(name, value);
  if (problem.extra.challenge) res.setHeader('WWW-Authenticate', challengeHeader(problem.extra.challenge));
  if (problem.extra.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(problem.extra.retryAfterSeconds));
  const body = problem.body(instanceOf(req.originalUrl.split('?')[0] ?? '/'), requestIdOf(res));
  // The contract bounds these: a 100-field list and a 2,000-character detail (which may quote the path).
  if (body.errors) body.errors = body.errors.slice(0, 100);
  body.detail = cutToCodePoints(body.detail, 2000);
  if (body.error_description !== undefined) body.error_description = body.detail;
  res.status(problem.status).type(problemMediaType(req, problem)).send(JSON.stringify(body));
}

/** The last handler: 405 with `Allow` for a path some operation serves with other methods, else 404. */
export function notFound(methodsAt: (path: string) => readonly string[] = () => []): RequestHandler {
  return (req, res) => {
    const allowed = methodsAt(req.path);
    if (allowed.length === 0) return sendProblem(res, req, new Problem('not-found', `No operation at ${req.method} ${req.path}.`));
    sendProblem(
      res,
      req,
      new Problem('method-not-allowed', `${req.path} answers ${allowed.join(', ')}, not ${req.method}.`, {
        headers: { Allow: allowed.join(', ') },
      }),
    );
  };
}

export function problemHandler(log: (entry: Record<string, unknown>, message: string) => void): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const e = err as ValidatorError & Error;
    const bodyRefused = bodyRefusal(err, req);
    let problem: Problem;
    if (err instanceof Problem) problem = err;
    else if (res.locals.authProblem) problem = res.locals.authProblem;
    else if (bodyRefused) problem = bodyRefused;
    else if (typeof e?.status === 'number' && e.status < 500) problem = fromValidator(e, req);
    else problem = new Problem('internal-error', "The failure was logged with this request's id.");
    if (problem.status >= 500) log({ err: { message: e?.message, stack: e?.stack, errors: e?.errors }, path: req.path }, 'request failed');
    sendProblem(res, req, problem);
  };
}
