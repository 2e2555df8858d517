// Requests closed, responses open (openapi/DECISIONS.md "Compatibility"), walked through every bundled document:
// no schema a response, a response header or a webhook payload reaches has `additionalProperties: false`; every
// enumeration they reach is open (`anyOf: [<the known values>, OpenEnumValue]`) unless listed below as closed on
// purpose; no request reaches OpenEnumValue; and each schema split into a response and a request half has the same
// fields in both. That every request object is closed is conventions.test.ts's check.
import { describe, expect, it } from 'vitest';
import { groups, type Group } from '../../generated/index.js';
import { keysOf } from '../../scripts/contract/document.js';
import { bundles, methods, resolve, type Json } from '../support/contract.js';

/** Response enumerations closed on purpose, by where they are reached, each with why a value cannot be added. */
const closedOnPurpose: Record<string, string> = {
  'TokenResponse.token_type': 'OAuth 2.0 bearer tokens (RFC 6750); another token type is another way to authenticate.',
  'LedgerEntry.direction': 'Double-entry bookkeeping has two sides, debit and credit.',
  'AccountLedgerEntry.direction': 'Double-entry bookkeeping has two sides, debit and credit.',
  'Transaction.direction': 'Money moves in or out of the merchant; there is no third direction.',
  'WireDetailsRecord.type': 'A wire stays within the country or crosses a border.',
  'WireTransferDetails.chargeBearer': 'The SWIFT charge codes (MT103 field 71A) are a closed set of the standard.',
  'header Idempotent-Replayed': 'The header is sent only on a replay; its one value is its meaning.',
};

/** Schemas split into a response half (open) and a request half (closed): the same fields, kept in step. */
const splitPairs: [response: string, request: string][] = [
  ['Address', 'AddressRequest'],
  ['RecipientAddressRecord', 'RecipientAddress'],
  ['PostalAddress', 'PostalAddressRequest'],
  ['WireIntermediaryBank', 'WireIntermediaryBankRequest'],
];

interface Root {
  where: string;
  schema: unknown;
  /** Where a reached schema is labelled from: the response's own name (a header) or its schemas'. */
  site: string;
}

/** Every schema a group's responses, response headers and webhook payloads start from; and its requests. */
function rootsOf(doc: Json): { responses: Root[]; requests: Root[] } {
  const responses: Root[] = [];
  const requests: Root[] = [];
  const items = [
    ...Object.entries<Json>(doc.paths ?? {}).map(([path, item]) => ({ name: path, item, webhook: false })),
    ...Object.entries<Json>(doc.webhooks ?? {}).map(([name, item]) => ({ name: `webhook ${name}`, item, webhook: true })),
  ];
  for (const { name, item: raw, webhook } of items) {
    const item = resolve(doc, raw);
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const at = `${method.toUpperCase()} ${name}`;
      for (const [media, content] of Object.entries<Json>(resolve(doc, op.requestBody)?.content ?? {}))
        (webhook ? responses : requests).push({
          where: `${at} ${webhook ? 'payload' : 'request body'} ${media}`,
          schema: content.schema,
          site: '',
        });
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const parameter = resolve(doc, raw);
        if (!webhook) requests.push({ where: `${at} ${parameter.in} parameter ${parameter.name}`, schema: parameter.schema, site: '' });
      }
      if (webhook) continue;
      for (const [status, rawResponse] of Object.entries<Json>(op.responses ?? {})) {
        const response = resolve(doc, rawResponse);
        for (const [media, content] of Object.entries<Json>(response.content ?? {}))
          responses.push({ where: `${at} response ${status} ${media}`, schema: content.schema, site: '' });
        for (const [header, rawHeader] of Object.entries<Json>(response.headers ?? {}))
          responses.push({
            where: `${at} response ${status} header ${header}`,
            schema: resolve(doc, rawHeader).schema,
            site: `header ${header}`,
          });
      }
    }
  }
  return { responses, requests };
}

const isOpenMember = (doc: Json, node: unknown) => resolve(doc, node)?.['x-open-enum-value'] === true;

interface Reached {
  node: Json;
  /** The nearest named object schema and the property path from it (`Payout.Status`), or the header. */
  site: string;
  /** Reached as the known values of an open enumeration. */
  open: boolean;
}

/** Every schema node reachable from `schema`: through $refs, properties, items, combinators and conditionals. */
function reach(doc: Json, schema: unknown, site: string, out: Reached[] = [], seen = new Set<string>(), open = false): Reached[] {
  let node = schema as Json | undefined;
  if (!node || typeof node !== 'object') return out;
  if (typeof node.$ref === 'string') {
    const name = keysOf(node.$ref).at(-1)!;
    node = resolve(doc, node) as Json;
    // An object schema names the site; an enumeration keeps the site that uses it.
    if (node.properties || node.type === 'object') site = name;
  }
  const key = `${site}|${open}|${JSON.stringify(node).length}|${Object.keys(node).join()}`;
  if (seen.has(key)) return out;
  seen.add(key);
  out.push({ node, site, open });
  for (const [name, child] of Object.entries<Json>(node.properties ?? {})) reach(doc, child, site ? `${site}.${name}` : name, out, seen);
  for (const child of [node.items, ...(node.prefixItems ?? [])]) if (child) reach(doc, child, `${site}[]`, out, seen);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    reach(doc, node.additionalProperties, `${site}{}`, out, seen);
  const opened = (node.anyOf ?? []).some((m: unknown) => isOpenMember(doc, m));
  for (const member of node.anyOf ?? []) if (!isOpenMember(doc, member)) reach(doc, member, site, out, seen, opened || open);
  for (const member of [...(node.allOf ?? []), ...(node.oneOf ?? [])]) reach(doc, member, site, out, seen, open);
  for (const branch of [node.if, node.then, node.else]) if (branch) reach(doc, branch, site, out, seen);
  return out;
}

describe.each(groups)('%s: responses can grow, requests cannot', (group: Group) => {
  const doc = bundles[group];
  const { responses, requests } = rootsOf(doc);
  const reachedFromResponses = responses.map((r) => ({ root: r, reached: reach(doc, r.schema, r.site) }));

  it('no schema of a response, response header or webhook payload is closed', () => {
    const closed = reachedFromResponses.flatMap(({ root, reached }) =>
      reached
        .filter(({ node }) => node.additionalProperties === false || node.unevaluatedProperties === false)
        .map(({ site }) => `${site || '(body)'} in ${root.where}`),
    );
    expect([...new Set(closed)]).toEqual([]);
  });

  it('every enumeration a response reaches is open, or closed on purpose', () => {
    const closed = reachedFromResponses.flatMap(({ root, reached }) =>
      reached
        .filter(({ node, open, site }) => Array.isArray(node.enum) && !open && !(site in closedOnPurpose))
        .map(({ node, site }) => `${site} [${node.enum.join(', ')}] in ${root.where}`),
    );
    expect([...new Set(closed)]).toEqual([]);
  });

  it('an open enumeration has known values and one open member', () => {
    const malformed = reachedFromResponses.flatMap(({ root, reached }) =>
      reached
        .filter(({ node }) => (node.anyOf ?? []).some((m: unknown) => isOpenMember(doc, m)))
        .filter(({ node }) => {
          const members = (node.anyOf as unknown[]).map((m) => resolve(doc, m));
          const known = members.filter((m) => m['x-open-enum-value'] !== true && m.type !== 'null');
          const openMember = members.filter((m) => m['x-open-enum-value'] === true);
          return openMember.length !== 1 || openMember[0].type !== 'string' || known.length !== 1 || !Array.isArray(known[0].enum);
        })
        .map(({ site }) => `${site} in ${root.where}`),
    );
    expect([...new Set(malformed)]).toEqual([]);
  });

  it('no request reaches an open enumeration (requests send only the known values)', () => {
    const opened = requests.flatMap((root) =>
      reach(doc, root.schema, root.site)
        .filter(({ node }) => (node.anyOf ?? []).some((m: unknown) => isOpenMember(doc, m)))
        .map(({ site }) => `${site || '(value)'} in ${root.where}`),
    );
    expect(opened).toEqual([]);
  });
});

describe('closed on purpose', () => {
  it('lists only enumerations a response still reaches closed', () => {
    const sites = new Set<string>();
    for (const group of groups) {
      const doc = bundles[group];
      for (const root of rootsOf(doc).responses)
        for (const { node, site, open } of reach(doc, root.schema, root.site)) if (Array.isArray(node.enum) && !open) sites.add(site);
    }
    expect(Object.keys(closedOnPurpose).filter((site) => !sites.has(site))).toEqual([]);
  });
});

/** A schema as a validator reads its fields: without closing, and an open enumeration as its known values. */
function fields(doc: Json, node: unknown): unknown {
  const n = resolve(doc, node);
  if (Array.isArray(n)) return n.map((x) => fields(doc, x));
  if (!n || typeof n !== 'object') return n;
  const members: unknown[] | undefined = n.anyOf;
  if (members?.some((m) => isOpenMember(doc, m))) {
    const { anyOf: _anyOf, ...rest } = n;
    const known = members.filter((m) => !isOpenMember(doc, m));
    return fields(doc, known.length === 1 ? { ...rest, ...resolve(doc, known[0]) } : { ...rest, anyOf: known });
  }
  const { additionalProperties: _closed, ...rest } = n;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, fields(doc, v)]));
}

describe.each(splitPairs)('%s and %s', (response, request) => {
  it('have the same fields wherever both are bundled', () => {
    const where = groups.filter((g) => bundles[g].components?.schemas?.[response] && bundles[g].components?.schemas?.[request]);
    expect(where.length).toBeGreaterThan(0);
    for (const g of where) {
      const schemas = bundles[g].components.schemas;
      expect(schemas[request].additionalProperties, `${request} is closed`).toBe(false);
      expect(fields(bundles[g], schemas[response]), `${g}: ${response} against ${request}`).toEqual(fields(bundles[g], schemas[request]));
    }
  });
});
