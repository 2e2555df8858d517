// The validator's route matchers are compiled once per documented path (server/http/route-matcher-cache.ts):
// a cached matcher answers exactly as a freshly compiled one, and no caller can change what the next gets; the
// validator's `strict` option is read as path-to-regexp 8 spells it.
import { describe, expect, it } from 'vitest';
import { cacheValidatorRouteMatchers, uncachedPathToRegexp, validatorPathToRegexpModule } from '../../server/http/route-matcher-cache.js';

describe('validator route matcher cache', () => {
  // Another test file of the same worker may have installed it already: the original is what the cache wraps.
  const mod = validatorPathToRegexpModule();
  const original = uncachedPathToRegexp();
  cacheValidatorRouteMatchers();
  const cached = mod.pathToRegexp;

  it('is installed once on the module the validator loads', () => {
    expect(cached).not.toBe(original);
    cacheValidatorRouteMatchers();
    expect(mod.pathToRegexp).toBe(cached);
  });

  it('matches as a fresh compile does, per path and per option', () => {
    for (const [path, options] of [
      ['/v1/payees/:id', { sensitive: false, strict: false }],
      ['/v1/payees/:id', { sensitive: true, strict: false }],
      ['/finance/api/v1/account/:accountId/balance', { sensitive: false, strict: false }],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const a = cached(path, { ...options });
        const b = original(path, { ...options });
        expect(a.regexp.source).toBe(b.regexp.source);
        expect(a.regexp.flags).toBe(b.regexp.flags);
        expect(a.keys).toEqual(b.keys);
      }
    }
    expect(cached('/v1/payees/:id', { sensitive: true }).regexp.exec('/V1/PAYEES/7')).toBeNull();
    expect(cached('/v1/payees/:id', { sensitive: false }).regexp.exec('/V1/PAYEES/7')?.[1]).toBe('7');
  });

  it("reads the validator's `strict` (the app's strict routing) as path-to-regexp 8's `trailing: false`", () => {
    for (const options of [{ sensitive: true, strict: true }, { strict: true }]) {
      expect(cached('/v1/payees/:id', options).regexp.exec('/v1/payees/7/'), JSON.stringify(options)).toBeNull();
      expect(cached('/v1/payees/:id', options).regexp.exec('/v1/payees/7')?.[1]).toBe('7');
    }
    expect(cached('/v1/payees/:id', { sensitive: true, strict: false }).regexp.exec('/v1/payees/7/')?.[1]).toBe('7');
    // What the validator's own call would do without the translation: path-to-regexp 8 ignores `strict`.
    expect(original('/v1/payees/:id', { strict: true }).regexp.exec('/v1/payees/7/')?.[1]).toBe('7');
  });

  it('hands each caller its own keys', () => {
    const first = cached('/v1/payees/:id/accounts/:accountId', {});
    first.keys.length = 0;
    expect(cached('/v1/payees/:id/accounts/:accountId', {}).keys.map((k) => k.name)).toEqual(['id', 'accountId']);
  });
});
