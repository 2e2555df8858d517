// Every operation of every group as the service serves it, read from the bundled documents: where it is
// served (the group's base path, or the origin for an operation with its own `servers`), which caller kind
// its security scheme wants, and where its request body and parameters are described. The security suites
// and the fuzzer loop over this list, so a new operation is covered without touching them.
import * as banking from '../../generated/banking/routes.js';
import * as consoleRoutes from '../../generated/console/routes.js';
import * as counterparty from '../../generated/counterparty/routes.js';
import * as merchant from '../../generated/merchant/routes.js';
import * as partner from '../../generated/partner/routes.js';
import * as platform from '../../generated/platform/routes.js';
import { groups, type Group } from '../../generated/index.js';
import { bundles, operationsOf, resolve, type Json } from './contract.js';

export const basePaths: Record<Group, string> = {
  merchant: merchant.basePath,
  platform: platform.basePath,
  partner: partner.basePath,
  banking: banking.basePath,
  counterparty: counterparty.basePath,
  console: consoleRoutes.basePath,
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
}

export interface ServedOperation {
  group: Group;
  operationId: string;
  method: string;
  /** The documented path. */
  path: string;
  /** The path on the service's origin (base path included), with `{param}` templates. */
  url: string;
  op: Json;
  /** JSON pointer to the operation in its bundle. */
  pointer: string;
  /** merchant for MerchantOAuth and BankingJWT, partner for PartnerJWT, none for token issuance; console for the
   * console group's operations (a session cookie, sign-in included), which the bearer suites leave to its own tests. */
  caller: 'merchant' | 'partner' | 'console' | 'none';
  parameters: Parameter[];
  /** JSON pointer to the JSON request body's schema, when there is one. */
  bodyPointer?: string;
  bodySchema?: Json;
  /** The documented response statuses. */
  statuses: number[];
}

const schemeCaller: Record<string, 'merchant' | 'partner'> = { MerchantOAuth: 'merchant', BankingJWT: 'merchant', PartnerJWT: 'partner' };

function served(group: Group): ServedOperation[] {
  const doc = bundles[group];
  return operationsOf(group).map(({ path, method, op, pointer }) => {
    const atOrigin = Array.isArray(op.servers) && op.servers.length > 0;
    const schemes = (op.security ?? doc.security ?? []).flatMap((s: Json) => Object.keys(s));
    const item = resolve(doc, doc.paths[path]);
    const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])]
      .map((p: Json) => resolve(doc, p))
      .map((p: Json) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: resolve(doc, p.schema) }));
    const content = op.requestBody ? resolve(doc, op.requestBody).content : undefined;
    const json = content?.['application/json'];
    return {
      group,
      operationId: op.operationId,
      method,
      path,
      url: (atOrigin ? '' : basePaths[group]) + path,
      op,
      pointer,
      caller: group === 'console' ? 'console' : schemes.length === 0 ? 'none' : schemeCaller[schemes[0]]!,
      parameters,
      ...(json ? { bodyPointer: `${pointer}/requestBody/content/application~1json/schema`, bodySchema: resolve(doc, json.schema) } : {}),
      statuses: Object.keys(op.responses).map(Number),
    };
  });
}

/** Every operation of every group, in group order. An operation two groups document appears under each. */
export const servedOperations: ServedOperation[] = groups.flatMap(served);

/** The same, once per distinct method and URL (the service answers a shared path item with one handler). */
export const distinctOperations: ServedOperation[] = servedOperations.filter(
  (o, i, all) => all.findIndex((x) => x.method === o.method && x.url === o.url) === i,
);

/** The documented request examples of an operation's JSON body, by name. */
export function requestExamples(o: ServedOperation): Record<string, unknown> {
  const doc = bundles[o.group];
  const json = o.op.requestBody ? resolve(doc, o.op.requestBody).content['application/json'] : undefined;
  if (!json) return {};
  if (json.examples)
    return Object.fromEntries(Object.entries<Json>(json.examples).map(([name, ex]) => [name, structuredClone(resolve(doc, ex).value)]));
  return json.example === undefined ? {} : { example: structuredClone(json.example) };
}

/** The names of the top-level properties a JSON body schema declares (through allOf, if/then and refs). */
export function declaredProperties(group: Group, schema: Json | undefined): Set<string> {
  const doc = bundles[group];
  const names = new Set<string>();
  const visit = (node: Json | undefined) => {
    const s = resolve(doc, node);
    if (!s || typeof s !== 'object') return;
    for (const name of Object.keys(s.properties ?? {})) names.add(name);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const sub of s[key] ?? []) visit(sub);
    for (const key of ['then', 'else'] as const) visit(s[key]);
  };
  visit(schema);
  return names;
}
