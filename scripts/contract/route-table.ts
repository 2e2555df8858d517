// The sources of generated/'s TypeScript beside each group's types: its route table (one entry per operation,
// webhooks excluded, with the Express path and where it is mounted: the server mounts exactly these routes and
// the tests compare them with the documents), the index of groups and tables, and the problem catalogue.
import { operationsOf } from './document.js';

/** The methods the server mounts (a route entry's `method`). */
const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId?: string;
  servers?: unknown[];
}
export interface OpenApiDocument {
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  security?: unknown[];
  paths?: Record<string, Partial<Record<(typeof methods)[number], Operation>>>;
  [key: string]: unknown;
}

/** The one declaration of a route entry, written into generated/route-entry.ts (which the tables and the index import,
 * so the index's import of the tables closes no cycle). */
const routeEntryType = `/** One operation as the server mounts it. */
export interface RouteEntry {
  readonly operationId: string;
  readonly method: ${methods.map((m) => `'${m}'`).join(' | ')};
  /** The documented path (\`/v1/payees/{id}\`). */
  readonly path: string;
  /** The same path as Express writes it (\`/v1/payees/:id\`). */
  readonly expressPath: string;
  /** True for operations with their own \`servers\` (the token issuer): served at the origin, not under basePath. */
  readonly atOrigin: boolean;
}`;

/** The path part of servers[0] with its variables at their defaults (`{sandbox_url}/payouts` → `/payouts`). */
export function basePathOf(doc: OpenApiDocument): string {
  const server = doc.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'https://placeholder.invalid').pathname.replace(/\/$/, '');
}

function routesOf(doc: OpenApiDocument) {
  const routes: { operationId: string; method: string; path: string; expressPath: string; atOrigin: boolean }[] = [];
  for (const { path, method, op } of operationsOf(doc)) {
    if (!(methods as readonly string[]).includes(method)) continue; // not mounted: head, options, trace
    if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
    routes.push({
      operationId: op.operationId,
      method,
      path,
      expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
      atOrigin: Array.isArray(op.servers) && op.servers.length > 0,
    });
  }
  return routes;
}

export function routeTableSource(group: string, doc: OpenApiDocument, stamp: string): string {
  const routes = routesOf(doc);
  return `// ${stamp}

import type { RouteEntry } from '../route-entry.js';

/** The API group this table belongs to. */
export const group = ${JSON.stringify(group)} as const;

/** Path prefix of the group on one origin: the path of servers[0] with its variables at their defaults. */
export const basePath = ${JSON.stringify(basePathOf(doc))} as const;

/** Every operation of the document (webhooks excluded), as the server mounts it. */
export const routes = ${JSON.stringify(routes, null, 2)} as const satisfies readonly RouteEntry[];

export type OperationId = (typeof routes)[number]['operationId'];
`;
}

const camel = (group: string) => group.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** generated/route-entry.ts: the type every route table's entries satisfy. */
export function routeEntrySource(stamp: string): string {
  return `// ${stamp}\n\n${routeEntryType}\n`;
}

/** generated/index.ts: the groups in their canonical order, the route-entry type and every group's table. */
export function indexSource(groups: readonly string[], stamp: string): string {
  return `// ${stamp}

${groups.map((g) => `import * as ${camel(g)} from './${g}/routes.js';`).join('\n')}
import type { RouteEntry } from './route-entry.js';

/** The API groups, in the order redocly.yaml lists them: the one list every loop over groups derives from. */
export const groups = ${JSON.stringify(groups)} as const;
export type Group = (typeof groups)[number];

export type { RouteEntry } from './route-entry.js';

/** Every group's route table: its base path and routes. */
export const routeTables = { ${groups.map(camel).join(', ')} } as const satisfies Record<Group, { basePath: string; routes: readonly RouteEntry[] }>;
`;
}

/** generated/problem-types.ts: the problem kinds the contract's Problem schema lists, with status and title. */
export function problemTypesSource(doc: OpenApiDocument, stamp: string): string {
  const type = (doc.components as { schemas?: Record<string, { properties?: Record<string, Record<string, unknown>> }> })?.schemas?.Problem
    ?.properties?.type;
  const base = type?.['x-problem-type-base'];
  const kinds = type?.['x-problem-types'];
  if (typeof base !== 'string' || !kinds || typeof kinds !== 'object')
    throw new Error('Problem.type carries no x-problem-type-base and x-problem-types');
  return `// ${stamp}

/** Every problem's \`type\` is this base and its kind. */
export const problemTypeBase = ${JSON.stringify(base)} as const;

/** The problem kinds, each with its status and title (the same for every occurrence). */
export const problemTypes = ${JSON.stringify(kinds, null, 2)} as const;

export type ProblemKind = keyof typeof problemTypes;
`;
}
