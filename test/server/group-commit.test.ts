// Group commit (server/platform/store/group-commit.ts), its behaviour matrix on each store: first inGroupCommit itself on
// an open store, with a second connection to the same database as the outside observer (what another process,
// or the service after a restart, would read); then the creates of the API through real HTTP.
//   works of one turn → one transaction on SQLite (the outside sees none of them until all are done), each its
//   own on PostgreSQL; each caller gets its own value; a work that throws → only it rejects, nothing of it is
//   written, the works after it do not see it; a work alone → a plain transaction; a caller hears only once its
//   rows are committed; a failed commit → every work of the batch rejects, none of its rows remain.
import SQLite from 'better-sqlite3';
import { sql, type Transaction } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import { Problem } from '../../server/platform/problems.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { inGroupCommit } from '../../server/platform/store/group-commit.js';
import type { Database } from '../../server/platform/store/schema.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

type Trx = Transaction<Database>;

/** A second connection to the store's database: it sees only what has been committed. */
interface Outside {
  /** How many merchants whose name starts with `prefix` are committed. */
  count(prefix: string): Promise<number>;
  close(): Promise<void>;
}

async function outsideOf(kind: 'sqlite' | 'postgres', url: string): Promise<Outside> {
  if (kind === 'sqlite') {
    const db = new SQLite(url, { readonly: true, fileMustExist: true });
    const counting = db.prepare<[string], { n: number }>('select count(*) as n from merchants where name like ?');
    return {
      count: async (prefix) => counting.get(`${prefix}%`)!.n,
      close: async () => {
        db.close();
      },
    };
  }
  // Connections of its own (works of PostgreSQL run in parallel, and may each look at once).
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => {}); // as the store's own pool: a connection the server ends is dropped, not thrown
  return {
    async count(prefix) {
      const { rows } = await pool.query<{ n: string }>('select count(*) as n from merchants where name like $1', [`${prefix}%`]);
      return Number(rows[0]!.n);
    },
    close: () => pool.end(),
  };
}

async function insertMerchant(trx: Trx, name: string): Promise<number> {
  const row = await trx.insertInto('merchants').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** How many merchants whose name starts with `prefix` the transaction sees. */
async function countInside(trx: Trx, prefix: string): Promise<number> {
  const row = await trx
    .selectFrom('merchants')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('name', 'like', `${prefix}%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The names of the merchants whose name starts with `prefix`, as the store's own connection reads them. */
async function namesIn(store: Store, prefix: string): Promise<string[]> {
  const rows = await store.db.selectFrom('merchants').select('name').where('name', 'like', `${prefix}%`).execute();
  return rows.map((r) => r.name).sort();
}

const pad = (i: number) => String(i).padStart(3, '0');

describe.each(stores)('inGroupCommit on $name', (kind) => {
  let store: Store;
  let outside: Outside;
  let drop: () => Promise<void>;
  let made = 0;
  /** A name prefix of this test's own: no LIKE wildcard in it, and no prefix of another. */
  const prefix = (what: string) => `gc-${kind.name}-${what}-${++made}-`;
  const sqlite = kind.name === 'sqlite';

  beforeAll(async () => {
    const fresh = await kind.fresh();
    drop = fresh.drop;
    store = await openStore(fresh.url, { poolSize: 5 });
    outside = await outsideOf(kind.name, fresh.url);
  });
  afterAll(async () => {
    await outside?.close();
    await store?.close();
    await drop?.();
  });

  it('works started in one turn all commit, each caller with its own value', async () => {
    const p = prefix('many');
    const n = 20;
    const seen: { inside: number; outside: number; txid?: string }[] = [];
    // Every call is made synchronously, in this one turn of the event loop.
    const calls = Array.from({ length: n }, (_, i) =>
      inGroupCommit(store, async (trx) => {
        const id = await insertMerchant(trx, `${p}${pad(i)}`);
        const txid = sqlite ? undefined : String((await sql<{ t: string }>`select txid_current() as t`.execute(trx)).rows[0]!.t);
        seen[i] = { inside: await countInside(trx, p), outside: await outside.count(p), txid };
        return { i, id };
      }),
    );
    const values = await Promise.all(calls);
    expect(values.map((v) => v.i)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(new Set(values.map((v) => v.id)).size).toBe(n);
    expect(await outside.count(p)).toBe(n);
    const rows = await store.db.selectFrom('merchants').select(['id', 'name']).where('name', 'like', `${p}%`).execute();
    for (const { i, id } of values) expect(rows.find((r) => Number(r.id) === id)?.name).toBe(`${p}${pad(i)}`);
    if (sqlite) {
      // One batch: each work saw what the works before it wrote, while nothing of any was committed yet. Were each
      // its own transaction, work i would have seen the i before it committed.
      expect(seen.map((s) => s.inside)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(seen.map((s) => s.outside)).toEqual(Array.from({ length: n }, () => 0));
    } else {
      // Each its own transaction.
      expect(new Set(seen.map((s) => s.txid)).size).toBe(n);
    }
  });

  it.runIf(sqlite)('a burst beyond 64 works is cut into batches of 64, committed one after the other', async () => {
    const p = prefix('burst');
    const n = 70;
    const committedBefore: number[] = [];
    const calls = Array.from({ length: n }, (_, i) =>
      inGroupCommit(store, async (trx) => {
        await insertMerchant(trx, `${p}${pad(i)}`);
        committedBefore[i] = await outside.count(p);
        return i;
      }),
    );
    expect(await Promise.all(calls)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(committedBefore).toEqual(Array.from({ length: n }, (_, i) => (i < 64 ? 0 : 64)));
    expect(await outside.count(p)).toBe(n);
  });

  it('a work that throws after writing: only it rejects, with its own error; nothing of it is written', async () => {
    const p = prefix('throws');
    const refusal = new Problem('not-found', 'No such payee.');
    const failure = new Error('the work broke');
    const throwing = new Map<number, Error>([
      [2, refusal],
      [5, failure],
    ]);
    const n = 8;
    const inside: number[] = [];
    const calls = Array.from({ length: n }, (_, i) =>
      inGroupCommit(store, async (trx) => {
        await insertMerchant(trx, `${p}${pad(i)}`);
        await insertMerchant(trx, `${p}${pad(i)}-second`);
        inside[i] = await countInside(trx, p);
        const error = throwing.get(i);
        if (error) throw error;
        return i;
      }),
    );
    const settled = await Promise.allSettled(calls);
    settled.forEach((s, i) => {
      const error = throwing.get(i);
      if (error) expect(s).toEqual({ status: 'rejected', reason: error });
      else expect(s).toEqual({ status: 'fulfilled', value: i });
    });
    expect((settled[2] as PromiseRejectedResult).reason).toBe(refusal);
    expect((settled[5] as PromiseRejectedResult).reason).toBe(failure);
    const kept = Array.from({ length: n }, (_, i) => i).filter((i) => !throwing.has(i));
    const expected = kept.flatMap((i) => [`${p}${pad(i)}`, `${p}${pad(i)}-second`]).sort();
    expect(await namesIn(store, p)).toEqual(expected);
    expect(await outside.count(p)).toBe(expected.length);
    if (sqlite) {
      // The works after a failed one ran on without its rows: its savepoint was rolled back before they started.
      let visible = 0;
      const wanted = Array.from({ length: n }, (_, i) => {
        visible += 2;
        const now = visible;
        if (throwing.has(i)) visible -= 2;
        return now;
      });
      expect(inside).toEqual(wanted);
    }
  });

  it('a work alone in its batch: a plain transaction, committed or rolled back as a whole', async () => {
    const p = prefix('alone');
    const value = await inGroupCommit(store, async (trx) => {
      await insertMerchant(trx, `${p}kept`);
      return 'kept';
    });
    expect(value).toBe('kept');
    expect(await outside.count(`${p}kept`)).toBe(1);

    const refusal = new Problem('business-rule', 'Refused after writing.');
    const alone = inGroupCommit(store, async (trx) => {
      await insertMerchant(trx, `${p}dropped`);
      await insertMerchant(trx, `${p}dropped-second`);
      throw refusal;
    });
    await expect(alone).rejects.toBe(refusal);
    expect(await namesIn(store, `${p}dropped`)).toEqual([]);
    expect(await outside.count(p)).toBe(1);
  });

  it('a caller hears of its work only once the rows are committed: another connection sees them at that moment', async () => {
    const p = prefix('heard');
    const n = 6;
    const log: string[] = [];
    const before: number[] = [];
    const atResolve: number[] = [];
    const calls = Array.from({ length: n }, (_, i) =>
      inGroupCommit(store, async (trx) => {
        await insertMerchant(trx, `${p}${pad(i)}`);
        before[i] = await outside.count(`${p}${pad(i)}`);
        log.push(`ran ${i}`);
        return i;
      }).then(async (i) => {
        log.push(`heard ${i}`);
        atResolve[i] = await outside.count(`${p}${pad(i)}`);
        return i;
      }),
    );
    await Promise.all(calls);
    // Done but not committed: invisible; heard of: visible.
    expect(before).toEqual(Array.from({ length: n }, () => 0));
    expect(atResolve).toEqual(Array.from({ length: n }, () => 1));
    if (sqlite) {
      // The batch commits once, after its last work: no caller hears before every work of the batch has run.
      const lastRan = Math.max(...log.map((entry, at) => (entry.startsWith('ran') ? at : -1)));
      const firstHeard = log.findIndex((entry) => entry.startsWith('heard'));
      expect(firstHeard).toBeGreaterThan(lastRan);
    }
  });

  it.runIf(sqlite)('a commit that fails rejects every work of the batch with its error; none of the batch is kept', async () => {
    const p = prefix('commit-fails');
    const own = new Error('failed on its own');
    const unknown = 900_000_000;
    const calls = [
      inGroupCommit(store, (trx) => insertMerchant(trx, `${p}000`)),
      // Succeeds itself, but its foreign keys are checked only at the commit, which therefore fails.
      inGroupCommit(store, async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await insertMerchant(trx, `${p}001`);
        await trx.insertInto('partner_merchants').values({ partner_id: unknown, merchant_id: unknown, linked_at: Date.now() }).execute();
        return 'dangling';
      }),
      inGroupCommit(store, (trx) => insertMerchant(trx, `${p}002`)),
      inGroupCommit(store, async (trx) => {
        await insertMerchant(trx, `${p}003`);
        throw own;
      }),
      inGroupCommit(store, (trx) => insertMerchant(trx, `${p}004`)),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    const reasons = settled.map((s) => (s as PromiseRejectedResult).reason);
    // Every work that succeeded hears the commit's error; the one that failed, its own.
    expect(reasons[3]).toBe(own);
    const commitError = reasons[0];
    expect(commitError).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    for (const i of [1, 2, 4]) expect(reasons[i]).toBe(commitError);
    expect(await namesIn(store, p)).toEqual([]);
    expect(await outside.count(p)).toBe(0);
    const links = await store.db.selectFrom('partner_merchants').select('partner_id').where('partner_id', '=', unknown).execute();
    expect(links).toEqual([]);

    // The store goes on: the next batch commits, and its foreign keys are checked at once again (the pragma ended
    // with the failed transaction), so a dangling reference now refuses only its own work.
    const next = prefix('after-failed-commit');
    const after = await Promise.allSettled([
      inGroupCommit(store, (trx) => insertMerchant(trx, `${next}000`)),
      inGroupCommit(store, async (trx) => {
        await insertMerchant(trx, `${next}001`);
        await trx.insertInto('partner_merchants').values({ partner_id: unknown, merchant_id: unknown, linked_at: Date.now() }).execute();
      }),
      inGroupCommit(store, (trx) => insertMerchant(trx, `${next}002`)),
    ]);
    expect(after.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((after[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    expect(await namesIn(store, next)).toEqual([`${next}000`, `${next}002`]);
    expect(await outside.count(next)).toBe(2);
  });

  it.runIf(!sqlite)('a commit that fails rejects only its own work: each work has its own transaction', async () => {
    const p = prefix('commit-fails');
    // A reference checked only at commit (the service's own are checked at once): a commit that can fail.
    await sql`create table if not exists group_commit_probe (
      id serial primary key,
      merchant_id bigint not null references merchants (id) deferrable initially deferred
    )`.execute(store.db);
    const calls = [
      inGroupCommit(store, (trx) => insertMerchant(trx, `${p}000`)),
      inGroupCommit(store, async (trx) => {
        await insertMerchant(trx, `${p}001`);
        await sql`insert into group_commit_probe (merchant_id) values (900000000)`.execute(trx);
        return 'dangling';
      }),
      inGroupCommit(store, (trx) => insertMerchant(trx, `${p}002`)),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' }); // foreign_key_violation
    expect(await namesIn(store, p)).toEqual([`${p}000`, `${p}002`]);
    expect(await outside.count(p)).toBe(2);
  });
});

interface Answer {
  status: number;
  body: any;
  replayed: string | null;
}

describe.each(stores)('concurrent creates through HTTP on $name', (kind) => {
  // Payouts stay `created` while the test looks: no step of the sandbox in its time, so no event but the first.
  const service = useService(kind, { sandboxStepMs: 3_600_000 });
  let m: TestMerchant;
  let payeeId: number;
  let accountId: string;
  const db = () => service.services.store.db;

  beforeAll(async () => {
    m = await newMerchant(service, 'Batch');
    const payee = await unwrap(m.a.POST('/v1/payees', { body: individual }));
    const account = await unwrap(m.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() }));
    [payeeId, accountId] = [payee.id, account.PayeeAccountId];
  });

  async function count(table: 'payouts' | 'events'): Promise<number> {
    const row = await db()
      .selectFrom(table)
      .select(sql<number | string>`count(*)`.as('n'))
      .where('merchant_id', '=', m.merchantId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('valid, refused and duplicate payouts at once: each its own answer; the duplicates one payout, the rest replayed', async () => {
    const scope = `merchant:${m.merchantId}:createPayout`;
    const [payoutsBefore, eventsBefore] = [await count('payouts'), await count('events')];
    const send = async (body: Record<string, unknown>, key: string): Promise<Answer> => {
      const { data, error, response } = await m.a.POST('/v1/payouts', {
        params: { header: { 'Idempotency-Key': key } },
        body: body as any,
      });
      return { status: response.status, body: data ?? error, replayed: response.headers.get('idempotent-replayed') };
    };
    const valid = Array.from({ length: 12 }, (_, i) => ({
      key: `${kind.name}-valid-${i}`,
      body: { PayeeId: payeeId, PayeeAccountId: accountId, Amount: 10 + i, Currency: 'USD', Description: `valid ${i}` },
    }));
    // Valid in the contract's eyes; only the domain, inside the transaction, finds no such payee (404).
    const refused = Array.from({ length: 4 }, (_, i) => ({
      key: `${kind.name}-refused-${i}`,
      body: { PayeeId: 900_000_000 + i, Amount: 5, Currency: 'USD' },
    }));
    const duplicate = {
      key: `${kind.name}-duplicate`,
      body: { PayeeId: payeeId, PayeeAccountId: accountId, Amount: 99.99, Currency: 'USD' },
    };
    const duplicates = Array.from({ length: 4 }, () => duplicate);
    // Interleaved, all sent at once.
    const requests = [...valid, ...refused, ...duplicates].map((r, i) => ({ ...r, i })).sort((a, b) => (a.i % 5) - (b.i % 5) || a.i - b.i);
    const answers = await Promise.all(requests.map((r) => send(r.body, r.key)));
    const answerOf = (key: string) => answers.filter((_, at) => requests[at]!.key === key);

    const created = valid.map(({ key, body }) => {
      const [a] = answerOf(key);
      expect(a!.status, JSON.stringify(a!.body)).toBe(202);
      expect(a!.replayed).toBeNull();
      expect(a!.body).toMatchObject({ Description: body.Description, Status: 'created' });
      expect(Number(a!.body.Amount)).toBe(body.Amount);
      return a!.body.PayoutUniqueReference as string;
    });
    for (const { key, body } of refused) {
      const [a] = answerOf(key);
      expect(a!.status, JSON.stringify(a!.body)).toBe(404);
      expect(a!.replayed).toBeNull();
      expect(a!.body.type).toBe('https://payouts.example/problems/not-found');
      expect(a!.body.detail).toContain(String(body.PayeeId));
    }
    const copies = answerOf(duplicate.key);
    expect(copies).toHaveLength(4);
    const originals = copies.filter((a) => a.replayed === null);
    expect(originals, JSON.stringify(copies)).toHaveLength(1);
    expect(originals[0]!.status).toBe(202);
    for (const a of copies.filter((x) => x !== originals[0])) {
      expect([a.status, a.replayed]).toEqual([202, 'true']);
      expect(a.body).toEqual(originals[0]!.body);
    }
    created.push(originals[0]!.body.PayoutUniqueReference);
    expect(new Set(created).size).toBe(13);

    // Exactly what was answered is stored: the 13 payouts with one event each, and a key record for each of them.
    expect(await count('payouts')).toBe(payoutsBefore + 13);
    expect(await count('events')).toBe(eventsBefore + 13);
    const stored = await db().selectFrom('payouts').select('reference').where('merchant_id', '=', m.merchantId).execute();
    expect(stored.map((r) => r.reference)).toEqual(expect.arrayContaining(created));
    const events = await db().selectFrom('events').select('subject').where('subject', 'in', created).execute();
    expect(events.map((e) => e.subject).sort()).toEqual([...created].sort());
    const keys = await db().selectFrom('idempotency_keys').select('key').where('scope', '=', scope).execute();
    expect(keys.map((k) => k.key).sort()).toEqual([...valid.map((v) => v.key), duplicate.key].sort());
  });
});
