// THE way a suite starts a service: `const service = useService(kind, overrides, options)` at the top of a
// `describe` (or a `describe.each(stores)`). It registers the suite's own beforeAll (a fresh database of that store,
// the service started over it) and afterAll (the service stopped, failing on contract violations, then the database
// dropped, even when the stop failed). What it returns is a RunningService whose fields are read when used: inside
// a hook or a test, never at the top of the describe. A suite's own beforeAll, registered after it, runs after the
// service has started; its own afterAll runs before the service stops.
import { afterAll, beforeAll } from 'vitest';
import type { Principal } from '../../server/domain/auth/principal.js';
import { type Config, loadConfig } from '../../server/platform/config.js';
import { type TestMerchant, newMerchant } from './merchants.js';
import { type TestPartner, newPartner } from './partners.js';
import { type Answer, type Call, send } from './requests.js';
import { type RunningService, startService } from './service.js';
import type { StoreKind } from './stores.js';

type StartOptions = NonNullable<Parameters<typeof startService>[2]>;

export interface ServiceFixture extends RunningService {
  /** The store's name ('sqlite', 'postgres'), or 'memory' for an in-memory SQLite store. */
  readonly storeName: string;
  /** Plain HTTP to the service, with whatever token, body and headers a case needs (requests.ts). */
  send(method: string, path: string, call?: Call): Promise<Answer>;
  /** A token the service issues for a merchant or partner, without a token request. */
  token(principal: Principal): Promise<string>;
  /** The suite's merchant (made on first use; `name` only counts then), with its clients and a token. */
  merchant(name?: string): Promise<TestMerchant & { token: string }>;
  /** The suite's partner, linked to the suite's merchant (both made on first use), with its clients and a token. */
  partner(name?: string): Promise<TestPartner & { token: string }>;
}

/**
 * Starts a service for the enclosing describe: over a fresh database of `store`, or over `':memory:'` (SQLite in
 * memory). `overrides` and `options` are startService's.
 */
export function useService(store: StoreKind | ':memory:', overrides: Partial<Config> = {}, options: StartOptions = {}): ServiceFixture {
  let running: RunningService | undefined;
  let drop: (() => Promise<void>) | undefined;
  let merchant: Promise<TestMerchant & { token: string }> | undefined;
  let partner: Promise<TestPartner & { token: string }> | undefined;
  const current = (): RunningService => {
    if (!running) throw new Error('useService: the service starts in beforeAll; read it inside a hook or a test');
    return running;
  };

  beforeAll(async () => {
    let url = ':memory:';
    if (store !== ':memory:') {
      // Migrated already, for the environment the service runs in (a copy of the run's template: stores.ts).
      const db = await store.migrated(overrides.environment ?? loadConfig({}).environment);
      drop = db.drop;
      url = db.url;
    }
    running = await startService(url, overrides, options);
  });
  afterAll(async () => {
    try {
      await running?.stop();
    } finally {
      await drop?.();
    }
  });

  const fixture: ServiceFixture = {
    storeName: store === ':memory:' ? 'memory' : store.name,
    get baseUrl() {
      return current().baseUrl;
    },
    get services() {
      return current().services;
    },
    get contractViolations() {
      return current().contractViolations;
    },
    get warnings() {
      return current().warnings;
    },
    get logs() {
      return current().logs;
    },
    get problems() {
      return current().problems;
    },
    stop: () => current().stop(),
    send: (method, path, call) => send(current().baseUrl, method, path, call),
    token: async (principal) => (await current().services.tokens.issue(principal)).access_token,
    merchant(name = 'Acme') {
      merchant ??= (async () => {
        const m = await newMerchant(fixture, name);
        return { ...m, token: await fixture.token({ kind: 'merchant', merchantId: m.merchantId }) };
      })();
      return merchant;
    },
    partner(name = 'Partner') {
      partner ??= (async () => {
        const p = await newPartner(fixture, [(await fixture.merchant()).merchantId], name);
        return { ...p, token: await fixture.token({ kind: 'partner', partnerId: p.partnerId }) };
      })();
      return partner;
    },
  };
  return fixture;
}
