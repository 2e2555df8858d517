// The validator's metadata step (server/http/validator-route-lookup.ts) answers as express-openapi-validator's own:
// on every documented path of every group, in the methods each documents and one it does not, and on paths that
// must not match (another case, a trailing slash, an unknown segment, a malformed escape), both set the same
// `req.openapi` and `req.params`, throw the same error, or pass the request on. The validator's own step ignores the
// app's strict routing (path-to-regexp 8 no longer reads `strict`), so the two are compared without it, and strict
// routing is checked on its own.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { groups, routeTables } from '../../generated/index.js';
import {
  type OpenApiContext,
  compileDocumentedPath,
  routeLookup,
  validatorMetadataInternals,
} from '../../server/http/validator-route-lookup.js';
import { fill } from '../support/requests.js';

const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const { OpenApiSpecLoader } = fromValidator('./framework/openapi.spec.loader.js');
const { OpenApiContext: ContextClass } = fromValidator('./framework/openapi.context.js');
const parts = validatorMetadataInternals();

async function contextOf(group: string, ignoreUndocumented: boolean): Promise<OpenApiContext> {
  const document = JSON.parse(readFileSync(new URL(`../../generated/${group}/openapi.json`, import.meta.url), 'utf8'));
  const spec = await new OpenApiSpecLoader({ apiDoc: document, validateApiSpec: false, $refParser: { mode: 'bundle' } }).load();
  return new ContextClass(spec, undefined, ignoreUndocumented, false) as OpenApiContext;
}

type Outcome = { next: boolean; openapi?: unknown; params?: unknown; error?: { name: string; status?: number; headers?: unknown } };

function outcome(
  middleware: (req: never, res: never, next: () => void) => void,
  method: string,
  url: string,
  settings: { sensitive: boolean; strict: boolean },
): Outcome {
  const path = url.split('?')[0]!;
  const req = {
    method,
    url,
    originalUrl: url,
    path,
    baseUrl: '',
    params: {},
    app: { enabled: (name: string) => (name === 'case sensitive routing' ? settings.sensitive : settings.strict) },
  } as Record<string, unknown>;
  let next = false;
  try {
    middleware(req as never, {} as never, () => {
      next = true;
    });
  } catch (err) {
    const e = err as { name: string; status?: number; headers?: unknown };
    return { next, error: { name: e.name, status: e.status, headers: e.headers } };
  }
  return { next, openapi: req.openapi, params: req.params };
}

describe('validator route lookup', () => {
  for (const group of groups) {
    for (const ignoreUndocumented of [true, false]) {
      it(`answers as the validator's own on every path of ${group} (ignoreUndocumented: ${ignoreUndocumented})`, async () => {
        const context = await contextOf(group, ignoreUndocumented);
        const ours = routeLookup(parts, context, context.apiDoc);
        const theirs = parts.original(context as never, context.apiDoc as never);
        const table = routeTables[group];
        const urls = table.routes.flatMap((r) => {
          const path = fill((r.atOrigin ? '' : table.basePath) + r.path, {});
          return [path, `${path}?PageSize=5`, path.toUpperCase(), `${path}/`, `${path}/extra`, path.replace(/\/1(?=\/|$)/, '/%E0%A4%A')];
        });
        let compared = 0;
        for (const url of [...new Set(urls), `${table.basePath}/nothing-here`, '/elsewhere']) {
          for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT']) {
            for (const sensitive of [true, false]) {
              const settings = { sensitive, strict: false };
              expect(outcome(ours as never, method, url, settings), `${method} ${url} ${JSON.stringify(settings)}`).toEqual(
                outcome(theirs as never, method, url, settings),
              );
              compared++;
            }
          }
        }
        expect(compared).toBeGreaterThan(table.routes.length * 10);
      });
    }
  }

  it('matches every documented operation, with its path parameters', async () => {
    const context = await contextOf('merchant', true);
    const ours = routeLookup(parts, context, undefined);
    const found = outcome(ours as never, 'GET', '/v1/payees/551', { sensitive: true, strict: true });
    expect(found).toMatchObject({
      next: true,
      params: { id: '551' },
      openapi: { openApiRoute: '/v1/payees/{id}', pathParams: { id: '551' } },
    });
  });

  it("reads the app's strict routing as path-to-regexp 8's `trailing: false`", async () => {
    const context = await contextOf('merchant', true);
    const ours = routeLookup(parts, context, undefined);
    expect(outcome(ours as never, 'GET', '/v1/payees/551/', { sensitive: true, strict: true }).openapi).toBeUndefined();
    expect(outcome(ours as never, 'GET', '/v1/payees/551/', { sensitive: true, strict: false }).openapi).toBeDefined();
    const strict = compileDocumentedPath(parts.pathToRegexp, '/v1/payees/:id', { sensitive: true, strict: true });
    expect(strict.regexp.exec('/v1/payees/7/')).toBeNull();
    expect(strict.regexp.exec('/v1/payees/7')?.[1]).toBe('7');
    expect(strict.keys).toEqual(['id']);
  });
});
