// Which methods the service answers at a path, across every group: a known path asked with another method
// gets 405 with `Allow` (RFC 9110, section 15.5.6) rather than a 404 that suggests the path is wrong.
import type { RouteEntry } from '../../generated/index.js';

interface MountedRoutes {
  basePath: string;
  routes: readonly RouteEntry[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function allowedMethods(mounts: readonly MountedRoutes[]): (path: string) => string[] {
  // Paths match as written, as the app routes them (strict, case-sensitive routing: app.ts).
  const entries = mounts.flatMap((m) =>
    m.routes
      .filter((r) => !r.atOrigin || m.basePath === '')
      .map((r) => ({
        pattern: new RegExp(
          `^${((r.atOrigin ? '' : m.basePath) + r.path)
            .split(/\{[^}]+\}/)
            .map(escapeRegExp)
            .join('[^/]+')}$`,
        ),
        method: r.method.toUpperCase(),
        parameters: (r.path.match(/\{/g) ?? []).length,
      })),
  );
  return (path) => {
    // The most literal template names the resource, as in the validator: /v1/payees/list is the list, not a
    // payee whose id is "list".
    const matching = entries.filter((e) => e.pattern.test(path));
    const fewest = Math.min(...matching.map((e) => e.parameters));
    const methods = new Set(matching.filter((e) => e.parameters === fewest).map((e) => e.method));
    if (methods.has('GET')) methods.add('HEAD');
    return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => methods.has(m));
  };
}
