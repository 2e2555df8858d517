// Count limits under concurrency, through real HTTP on each store: for every create a count limits, 40
// concurrent requests for one owner store exactly the limit (201), refuse the rest (422 limit-reached), and
// the list read afterwards still answers 200 within its documented maxItems. Every count-limited create of
// the server goes through createWithinLimit (server/platform/store/count-limit.ts) and is listed here.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { maxAccountsPerPayee } from '../../server/domain/payees/payee-accounts.js';
import { maxWebhooksPerMerchant } from '../../server/domain/webhooks/webhook-registrations.js';
import { maxCredentialsPerOwner } from '../../server/domain/auth/credentials.js';
import { ConsoleBrowser, consoleClient, newConsoleUser } from '../support/console.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { type ServiceFixture, useService } from '../support/use-service.js';

interface Answer {
  response: Response;
  error?: { type?: string };
}

interface LimitedCreate {
  operation: string;
  /** The server module whose create is limited. */
  module: string;
  limit: number;
  /** Makes the owner whose rows are counted; returns its id. */
  owner(m: TestMerchant, service: ServiceFixture): Promise<number>;
  create(m: TestMerchant, owner: number, i: number): Promise<Answer>;
  list(m: TestMerchant, owner: number): Promise<{ response: Response; data?: unknown[] }>;
}

const limitedCreates: LimitedCreate[] = [
  {
    operation: 'POST /v1/payees/{id}/accounts',
    module: 'server/domain/payees/payee-accounts.ts',
    limit: maxAccountsPerPayee,
    owner: async (m) => (await unwrap(m.a.POST('/v1/payees', { body: individual }))).id,
    create: (m, id, i) =>
      m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id } }, body: bankAccount(`00012${String(i).padStart(5, '0')}`) }),
    list: (m, id) => m.a.GET('/v1/payees/{id}/accounts', { params: { path: { id } } }),
  },
  {
    operation: 'POST /v1/webhooks',
    module: 'server/domain/webhooks/webhook-registrations.ts',
    limit: maxWebhooksPerMerchant,
    owner: async (m) => m.merchantId,
    create: (m, _, i) => m.a.POST('/v1/webhooks', { body: { url: `http://127.0.0.1:9/hooks/${i}` } }),
    list: (m) => m.a.GET('/v1/webhooks'),
  },
];

const concurrent = 40;

// The console's credentials: a merchant holds the one it was made with, so its console adds one fewer than the cap.
const consoles = new Map<number, ReturnType<typeof consoleClient>>();
const limited: LimitedCreate[] = [
  ...limitedCreates,
  {
    operation: 'POST /console/api/credentials',
    module: 'server/domain/auth/credentials.ts',
    limit: maxCredentialsPerOwner - 1,
    owner: async (m, service) => {
      const user = await newConsoleUser(service, { kind: 'merchant', id: m.merchantId });
      const browser = new ConsoleBrowser(service);
      await browser.signIn(user.email);
      consoles.set(m.merchantId, consoleClient(browser, service.baseUrl));
      return m.merchantId;
    },
    create: (_, owner) => consoles.get(owner)!.POST('/console/api/credentials'),
    list: async (m, owner) => {
      const answer = await consoles.get(owner)!.GET('/console/api/credentials', { params: { query: { PageSize: 100 } } });
      return { response: answer.response, data: answer.data?.data.filter((c) => c.clientId !== m.clientId) };
    },
  },
];

describe.each(stores)('count limits under concurrency on $name', (kind) => {
  const service = useService(kind, {}, { workers: false });

  it.each(limited.map((l) => [l.operation, l] as const))(`%s: ${concurrent} concurrent creates store exactly the limit`, async (_, l) => {
    const m = await newMerchant(service, `Racer ${l.operation}`);
    const owner = await l.owner(m, service);
    // One token first, so the race is between the creates, not between token requests.
    expect((await l.list(m, owner)).response.status).toBe(200);
    const answers = await Promise.all(Array.from({ length: concurrent }, (_, i) => l.create(m, owner, i)));
    const statuses = answers.map((a) => a.response.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(l.limit);
    expect(statuses.filter((s) => s !== 201)).toEqual(Array(concurrent - l.limit).fill(422));
    const refusals = answers.filter((x) => x.response.status === 422).map((x) => x.error!.type);
    expect(new Set(refusals)).toEqual(new Set(['https://payouts.example/problems/limit-reached']));
    const listed = await l.list(m, owner);
    expect(listed.response.status).toBe(200);
    expect(listed.data).toHaveLength(l.limit);
  });
});

describe('every count-limited create is raced above', () => {
  const serverRoot = join(import.meta.dirname, '../../server');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (e.isDirectory()) return sources(join(dir, e.name));
      return e.name.endsWith('.ts') ? [join(dir, e.name)] : [];
    });
  const files = sources(serverRoot).map((f) => ({ path: `server/${relative(serverRoot, f)}`, text: readFileSync(f, 'utf8') }));
  const mechanism = 'server/platform/store/count-limit.ts';

  it('the creates that use createWithinLimit are exactly the ones in the table', () => {
    const users = files.filter((f) => f.path !== mechanism && f.text.includes('createWithinLimit(')).map((f) => f.path);
    expect(users.sort()).toEqual(limited.map((l) => l.module).sort());
  });

  it('no create refuses with limit-reached on its own', () => {
    const elsewhere = files.filter(
      (f) =>
        ![mechanism, 'server/platform/problems.ts', 'generated/problem-types.ts'].includes(f.path) && f.text.includes("'limit-reached'"),
    );
    expect(elsewhere.map((f) => f.path)).toEqual([]);
  });
});
