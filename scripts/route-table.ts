// Derives a group's route table from its bundled document: one entry per operation (webhooks excluded),
// with the Express path, where it is mounted and whether it needs a token. The server mounts exactly these
// routes and the tests compare them with the documents.
import type { Group } from './groups.js';

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId?: string;
  security?: unknown[];
  servers?: unknown[];
  responses?: Record<string, unknown>;
}
export interface OpenApiDocument {
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  security?: unknown[];
  paths?: Record<string, Partial<Record<(typeof methods)[number], Operation>>>;
  [key: string]: unknown;
}

export interface RouteEntry {
  operationId: string;
  method: (typeof methods)[number];
  path: string;
  expressPath: string;
  /** True for operations with their own `servers` (the token issuer): served at the origin, not under basePath. */
  atOrigin: boolean;
  secured: boolean;
  successStatuses: number[];
}

/** The path part of servers[0] with its variables at their defaults (`{sandbox_url}/payouts` → `/payouts`). */
export function basePathOf(doc: OpenApiDocument): string {
  const server = doc.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'https://placeholder.invalid').pathname.replace(/\/$/, '');
}

export function routesOf(doc: OpenApiDocument): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      routes.push({
        operationId: op.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        atOrigin: Array.isArray(op.servers) && op.servers.length > 0,
        secured: (op.security ?? doc.security ?? []).length > 0,
        successStatuses: Object.keys(op.responses ?? {})
          .filter((s) => /^2\d\d$/.test(s))
          .map(Number),
      });
    }
  }
  return routes;
}

export function routeTableSource(group: Group, doc: OpenApiDocument, stamp: string): string {
  const routes = routesOf(doc);
  return `// ${stamp}

/** The API group this table belongs to. */
export const group = ${JSON.stringify(group)} as const;

/** Path prefix of the group on one origin: the path of servers[0] with its variables at their defaults. */
export const basePath = ${JSON.stringify(basePathOf(doc))} as const;

/** Every operation of the document (webhooks excluded), as the server mounts it. */
export const routes = ${JSON.stringify(routes, null, 2)} as const;

export type OperationId = (typeof routes)[number]['operationId'];
`;
}
