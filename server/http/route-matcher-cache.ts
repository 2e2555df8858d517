// express-openapi-validator 5.6 looks a request's operation up by compiling every documented path with
// path-to-regexp, on every request, until one matches (openapi.metadata.js, lookupRoute). Compiling is
// pure, so this caches it: the first request per path pays, the rest reuse the compiled matcher. In the
// service's profile the compiling was the largest cost of the validator on a GET. Upstream has the same
// fix open (cdimascio/express-openapi-validator#1217, "perf: cache route matchers"); remove this module
// once a release has it.
//
// The cache is installed on the path-to-regexp instance the validator itself resolves, and only there.
// express's router compiles its routes once, at registration, with its own entry points.
//
// It also speaks path-to-regexp 8 for the validator, which keep this module after upstream caches: the validator
// passes the app's 'strict routing' as `strict`, an option of path-to-regexp 6 that 8 no longer reads (8 calls it
// `trailing`, inverted, and allows a trailing slash by default). Translated, `/v1/payees/1/` stops matching
// `/v1/payees/:id` on an app with strict routing, as it does in Express's own router.
import { createRequire } from 'node:module';

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: { name: string }[] };

/** The validator's options as path-to-regexp 8 reads them: `strict` becomes `trailing: false`. */
function asVersion8(options: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!options || !('strict' in options)) return options;
  const { strict, ...rest } = options;
  return { ...rest, trailing: !strict };
}
const installed = Symbol.for('payout-service.route-matcher-cache');
/** The documented paths are a finite set; the bound only guards against a caller of pathToRegexp elsewhere. */
const maxEntries = 10_000;

/** The path-to-regexp module express-openapi-validator loads (its own copy, or the hoisted one). */
export function validatorPathToRegexpModule(): { pathToRegexp: PathToRegexp } {
  const fromHere = createRequire(import.meta.url);
  const fromValidator = createRequire(fromHere.resolve('express-openapi-validator'));
  return fromValidator('path-to-regexp') as { pathToRegexp: PathToRegexp };
}

type Cached = PathToRegexp & { [installed]?: PathToRegexp };

/** The validator's path-to-regexp without the cache (what the cache compiles with, once installed). */
export function uncachedPathToRegexp(): PathToRegexp {
  const current = validatorPathToRegexpModule().pathToRegexp as Cached;
  return current[installed] ?? current;
}

/** The validator passes `{ sensitive, strict }` for every documented path of every request: keyed without
 * serialising it each time. Any other options are serialised. */
function optionsKey(options: Record<string, unknown> | undefined): string {
  if (!options) return '';
  const keys = Object.keys(options);
  if (keys.length === 2 && typeof options.sensitive === 'boolean' && typeof options.strict === 'boolean')
    return `${options.sensitive ? 's' : '-'}${options.strict ? 't' : '-'}`;
  return JSON.stringify(options);
}

export function cacheValidatorRouteMatchers(): void {
  const mod = validatorPathToRegexpModule();
  const current = mod.pathToRegexp as Cached;
  if (current[installed]) return;
  const compile = current;
  const cache = new Map<string, ReturnType<PathToRegexp>>();
  const cached: Cached = (path, options) => {
    // Only string paths with plain options are cached (the validator's case); anything else compiles as before.
    if (typeof path !== 'string') return compile(path, asVersion8(options));
    const key = `${path}\u0000${optionsKey(options)}`;
    let hit = cache.get(key);
    if (!hit) {
      hit = compile(path, asVersion8(options));
      if (cache.size >= maxEntries) cache.clear();
      cache.set(key, hit);
    }
    // A fresh keys array per call, so a caller that changes it cannot change the next caller's.
    return { ...hit, keys: hit.keys.slice() };
  };
  cached[installed] = compile;
  mod.pathToRegexp = cached;
}
