// Two rules of an operation's inputs that express-openapi-validator does not hold, read once per route from
// the bundled document and checked before the handler runs:
// - integer and number parameters (path and query) are written in plain decimal digits. The validator's type
//   coercion reads a parameter as JavaScript's `+value` does, so `1e400` became Infinity (which skips every
//   bound, then failed in the store), `0x10` became 16 and ` 7` became 7;
// - a body the operation requires is present. The validator infers that from the body schema listing required
//   properties, so an operation whose fields are all optional took no body at all;
// - only documented query parameters are sent. The validator stops refusing unknown ones on an operation with a
//   `deepObject` parameter (it cannot tell `metadata[key]` from a stray name), so such an operation takes any.
import type { Request } from 'express';
import { missingBody, type FieldError } from '../platform/problems.js';

type Json = Record<string, unknown>;

interface NumericParameter {
  name: string;
  in: 'path' | 'query';
  syntax: RegExp;
  detail: string;
  /** A path parameter's place among the request path's `/`-separated segments. */
  segment?: number;
}

const integer = { syntax: /^-?[0-9]{1,20}$/, detail: 'must be an integer written in decimal digits' };
const decimal = { syntax: /^-?[0-9]{1,20}(\.[0-9]{1,20})?$/, detail: 'must be a number written in decimal digits' };

/** Follows local `$ref`s (`#/components/...`) of a bundled document. */
export function deref(document: Json, node: unknown): Json {
  let n = node as Json;
  while (n && typeof n.$ref === 'string') {
    n = (n.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Json;
  }
  return n;
}

export interface InputRules {
  /** The path and query parameters whose schema is an integer or a number. */
  numeric: NumericParameter[];
  bodyRequired: boolean;
  /** With a `deepObject` parameter: the documented query names, and those sent as `name[key]`. */
  queryNames?: { plain: Set<string>; deep: string[] };
}

/** `prefix`: what the request path has before the documented path (the group's base path). */
export function inputRules(document: object, path: string, method: string, prefix = ''): InputRules {
  const doc = document as Json;
  const item = deref(doc, (doc.paths as Json)[path]);
  const op = deref(doc, item[method]);
  const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => deref(doc, p));
  const numeric = params.flatMap((p): NumericParameter[] => {
    const type = deref(doc, p.schema)?.type;
    if ((p.in !== 'path' && p.in !== 'query') || (type !== 'integer' && type !== 'number')) return [];
    const segment = p.in === 'path' ? (prefix + path).split('/').indexOf(`{${String(p.name)}}`) : undefined;
    return [{ name: String(p.name), in: p.in, ...(type === 'integer' ? integer : decimal), ...(segment === undefined ? {} : { segment }) }];
  });
  const query = params.filter((p) => p.in === 'query');
  const deep = query.filter((p) => p.style === 'deepObject').map((p) => String(p.name));
  const queryNames = deep.length > 0 ? { plain: new Set(query.map((p) => String(p.name))), deep } : undefined;
  return { numeric, bodyRequired: deref(doc, op.requestBody)?.required === true, ...(queryNames ? { queryNames } : {}) };
}

/** The raw values of the request's query string, as sent (`URLSearchParams` decoding). */
function rawQuery(req: Request): URLSearchParams {
  const at = req.originalUrl.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
}

/** A path parameter as sent: its segment of the path, percent-decoded as a router would. The validator's copy
 * has been converted to a number by then. */
function rawPathParam(req: Request, segment: number | undefined): string {
  const text = segment === undefined ? undefined : req.path.split('/')[segment];
  if (text === undefined) return '';
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One field error per numeric parameter whose raw text is not plain decimal, and one for a missing body. */
export function inputFaults(req: Request, rules: InputRules): FieldError[] {
  const faults: FieldError[] = rules.bodyRequired && req.body === undefined ? [missingBody] : [];
  const query = rules.numeric.some((p) => p.in === 'query') || rules.queryNames ? rawQuery(req) : undefined;
  if (rules.queryNames && query) {
    const { plain, deep } = rules.queryNames;
    for (const name of new Set(query.keys())) {
      const known = plain.has(name) || deep.some((d) => name.startsWith(`${d}[`) && name.endsWith(']'));
      if (!known)
        faults.push({
          parameter: name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || '_',
          detail: 'is not a parameter of this operation',
        });
    }
  }
  for (const p of rules.numeric) {
    const raw = p.in === 'path' ? [rawPathParam(req, p.segment)] : (query?.getAll(p.name) ?? []);
    if (raw.some((value) => !p.syntax.test(value))) faults.push({ parameter: p.name, detail: p.detail });
  }
  return faults;
}
