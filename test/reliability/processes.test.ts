// Several processes: `npm start`'s entry with WEB_CONCURRENCY=2 and WORKER_CONCURRENCY=1 (a primary, two HTTP
// processes sharing the port, one worker process), on SQLite (the processes share the file) and on PostgreSQL.
// Every request here goes on a connection of its own, and the primary hands each new connection to the HTTP
// processes in turn, so consecutive requests meet different processes; the request log lines name the process
// (pid) that answered, and each claim below is checked to have been met by both. Proves: one payout for concurrent
// creates under one Idempotency-Key; a count limit that concurrent creates cannot pass; one rate limit budget and
// one failed-token count for all the processes; a rotated secret's tokens refused by every process; a process
// that dies (SIGKILL) replaced by the primary while the others go on, the work it left finished; SIGTERM to the
// primary stops every process and exits 0.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { bankAccount, individual } from '../support/merchants.js';
import { unsettled } from '../support/settled-events.js';
import { type AddressedAnswer, requestFrom } from '../support/source-address.js';
import { stores } from '../support/stores.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createMerchantWithCli, type ProvisionedMerchant, rotateSecretWithCli } from './admin-cli.js';
import { deliveredEvents, duplicates } from './delivered-events.js';
import { killAll, type ServerProcess, startServerProcess } from './server-process.js';
import { waitUntil } from './wait-until.js';

/** High enough for the suite's own requests under one merchant; a second merchant spends it whole. */
const perMinute = 300;

describe.each(stores)('npm start with two HTTP processes and a worker process on $name', (kind) => {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let server: ServerProcess;
  let merchant: ProvisionedMerchant;
  let receiver: WebhookReceiver | undefined;
  let store: Store | undefined;
  let token: string;
  let payeeId: number;

  /** The pids of the processes that logged `msg` (with `where` on its fields). */
  const pidsThatLogged = (msg: string, where: (entry: Record<string, unknown>) => boolean = () => true) =>
    new Set(server.entries.filter((e) => e.msg === msg && where(e)).map((e) => Number(e.pid)));
  const ready = (role: string) => server.entries.filter((e) => e.msg === 'process ready' && e.role === role).map((e) => Number(e.pid));
  const call = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string>; token?: string } = {}) =>
    requestFrom('127.0.0.1', `${server.baseUrl}${path}`, {
      ...options,
      headers: { authorization: `Bearer ${options.token ?? token}`, ...options.headers },
    });
  const issue = (secret: string, address = '127.0.0.1') =>
    requestFrom(address, `${server.baseUrl}/oauth/token`, {
      body: { client_id: merchant.clientId, client_secret: secret, grant_type: 'client_credentials' },
    });

  beforeAll(async () => {
    db = await kind.fresh();
    receiver = await startReceiver();
    server = await startServerProcess({
      DATABASE_URL: db.url,
      SANDBOX_STEP_MS: '0',
      WEB_CONCURRENCY: '2',
      WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: String(perMinute),
    });
    merchant = await createMerchantWithCli(db.url, `Processes on ${kind.name}`);
    token = (await issue(merchant.clientSecret)).body.access_token;
    expect((await call('/v1/webhooks', { body: { url: receiver.url } })).status).toBe(201);
    payeeId = (await call('/v1/payees', { body: individual })).body.id;
    store = await openStore(db.url, { migrate: false, poolSize: 2 });
  }, 120_000);
  afterAll(async () => {
    await killAll();
    await store?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('runs a primary with two HTTP processes and one worker process', () => {
    expect(ready('web')).toHaveLength(2);
    expect(ready('worker')).toHaveLength(1);
    expect(new Set([server.pid, ...ready('web'), ...ready('worker')]).size).toBe(4);
    // The limits of the embedded store are the primary's; PostgreSQL's are PostgreSQL's.
    for (const e of server.entries.filter((e) => e.msg === 'process ready'))
      expect(e.limits).toBe(kind.name === 'sqlite' ? 'primary' : 'postgres');
  });

  it('makes one payout of concurrent creates under one Idempotency-Key, whichever process takes each', async () => {
    const body = { PayeeId: payeeId, Amount: 12.5, Currency: 'USD', Description: 'one key, two processes' };
    // The payee needs an account first (the account is the payout's destination).
    expect((await call(`/v1/payees/${payeeId}/accounts`, { body: bankAccount('000123456789') })).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => call('/v1/payouts', { body, headers: { 'idempotency-key': 'race-across-processes' } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(202));
    expect(new Set(answers.map((a) => a.body.PayoutUniqueReference)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(15);
    const rows = await store!.db.selectFrom('payouts').select('reference').where('description', '=', body.Description).execute();
    expect(rows).toHaveLength(1);
    expect(pidsThatLogged('request', (e) => e.method === 'POST' && e.path === '/v1/payouts').size).toBe(2);
  });

  it('keeps a count limit that concurrent creates in both processes race for', async () => {
    // The primary hands each connection to an HTTP process that is free to take it, so under load one process can
    // take a whole round: rounds (each on a payee of its own) go on until one had both processes in it.
    let rounds = 0;
    for (let both = false; !both; ) {
      rounds++;
      const payee = (await call('/v1/payees', { body: individual })).body.id as number;
      // 30 accounts asked for at once, at most 20 allowed per payee.
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(`/v1/payees/${payee}/accounts`, { body: bankAccount(`0009${String(i).padStart(8, '0')}`) }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(20);
      expect(statuses.filter((s) => s === 422)).toHaveLength(10);
      const stored = await store!.db.selectFrom('payee_accounts').select('id').where('payee_id', '=', payee).execute();
      expect(stored).toHaveLength(20);
      // Which of them won the 20 places is up to the race.
      both = pidsThatLogged('request', (e) => e.method === 'POST' && e.path === `/v1/payees/${payee}/accounts`).size === 2;
      if (!both) expect(rounds, 'no round of five had both HTTP processes in it').toBeLessThan(5);
    }
  });

  it('delivers each event once: four events of every payout, from the worker process', async () => {
    const references: string[] = [];
    for (let i = 0; i < 20; i++)
      references.push(
        (await call('/v1/payouts', { body: { PayeeId: payeeId, Amount: 1 + i, Currency: 'USD' } })).body.PayoutUniqueReference,
      );
    await waitUntil('every payout settled', async () => (await unsettled(store!, { payouts: references })).length === 0, 30_000, 50);
    const received = deliveredEvents(receiver!.deliveries).filter((e) => references.includes(e.payout));
    expect(duplicates(received)).toEqual([]);
    expect(received).toHaveLength(references.length * 4);
    expect(pidsThatLogged('webhook delivery')).toEqual(new Set(ready('worker')));
  });

  it('counts one rate limit budget and one failed-token count for every process', async () => {
    // A fresh caller (a second merchant) spends its budget across both processes.
    const other = await createMerchantWithCli(db!.url, `Rate limited on ${kind.name}`);
    const issued = await requestFrom('127.0.0.5', `${server.baseUrl}/oauth/token`, {
      body: { client_id: other.clientId, client_secret: other.clientSecret, grant_type: 'client_credentials' },
    });
    const answers: AddressedAnswer[] = [];
    for (let i = 0; i < perMinute + 10; i++) answers.push(await call('/v1/webhooks', { token: issued.body.access_token }));
    expect(answers.slice(0, perMinute).map((a) => a.status)).toEqual(Array(perMinute).fill(200));
    expect(answers.slice(perMinute).map((a) => a.status)).toEqual(Array(10).fill(429));
    expect(answers.slice(0, perMinute).map((a) => Number(a.headers['ratelimit-remaining']))).toEqual(
      Array.from({ length: perMinute }, (_, i) => perMinute - 1 - i),
    );
    expect(pidsThatLogged('request', (e) => e.status === 429).size).toBe(2);

    // 11 wrong secrets for one Client ID from one address: the 11th is refused, whichever process takes it.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await issue(`sk_guess_${i}`, '127.0.0.6')).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    expect((await issue(merchant.clientSecret, '127.0.0.6')).status, 'the right secret from the guessing address').toBe(429);
    expect(pidsThatLogged('request', (e) => e.path === '/oauth/token' && e.status === 401).size).toBe(2);
  });

  it("ends a rotated secret's tokens in every process", async () => {
    const old = (await issue(merchant.clientSecret, '127.0.0.7')).body.access_token as string;
    for (let i = 0; i < 4; i++) expect((await call('/v1/webhooks', { token: old })).status).toBe(200);
    merchant = { ...merchant, clientSecret: await rotateSecretWithCli(db!.url, merchant.clientId) };
    // Every process comes to refuse the old token. The bound on when (the generation cache's 5 s) is proven on an
    // injected clock (test/server/secret-rotation.test.ts), not on this machine's: the wait's limit here is only a
    // last resort for a loaded machine.
    await waitUntil(
      'four requests in a row with the old token are refused',
      async () => {
        for (let i = 0; i < 4; i++) if ((await call('/v1/webhooks', { token: old })).status !== 401) return false;
        return true;
      },
      60_000,
      100,
    );
    for (let i = 0; i < 6; i++) expect((await call('/v1/webhooks', { token: old })).status).toBe(401);
    expect(pidsThatLogged('request', (e) => e.path === '/v1/webhooks' && e.status === 401).size).toBe(2);
    token = (await issue(merchant.clientSecret, '127.0.0.8')).body.access_token;
  });

  it('replaces a process that dies, and the others go on', async () => {
    const [web] = ready('web');
    const [worker] = ready('worker');
    process.kill(web!, 'SIGKILL');
    process.kill(worker!, 'SIGKILL');
    await waitUntil('two processes started anew', async () => ready('web').length === 3 && ready('worker').length === 2, 30_000, 50);
    expect(server.entries.filter((e) => e.msg === 'process died; starting another')).toHaveLength(2);
    const references: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await call('/v1/payouts', { body: { PayeeId: payeeId, Amount: 2 + i, Currency: 'USD' } });
      expect(answer.status).toBe(202);
      references.push(answer.body.PayoutUniqueReference);
    }
    await waitUntil('the new payouts settled', async () => (await unsettled(store!, { payouts: references })).length === 0, 30_000, 50);
    const received = deliveredEvents(receiver!.deliveries);
    expect(duplicates(received)).toEqual([]);
    expect(received.filter((e) => references.includes(e.payout))).toHaveLength(40);
    // The new worker process delivered them (the dead one never answers again).
    expect(pidsThatLogged('webhook delivery').has(ready('worker')[1]!)).toBe(true);
  });

  it('stops every process on SIGTERM to the primary and exits 0', async () => {
    const pids = [...ready('web'), ...ready('worker')].filter((pid) => existsSync(`/proc/${pid}`));
    expect(pids).toHaveLength(3);
    await server.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
    for (const pid of pids) expect(existsSync(`/proc/${pid}`), `process ${pid}`).toBe(false);
    for (const role of ['web', 'worker'])
      expect(server.entries.filter((e) => e.msg === 'stopping' && e.role === role).length).toBeGreaterThan(0);
    expect(server.failures).toEqual([]);
  });
});
