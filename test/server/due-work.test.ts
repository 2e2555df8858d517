// claimDue (server/platform/workers/due-work.ts), the one way every engine claims its due work, on each store, over payouts made
// through real HTTP with the workers not started: it takes only rows whose step is due, oldest step first, at most a
// batch; the step runs in the claim's transaction, a failed batch is retried row by row and a row that fails alone is
// put off (the rest move on); onProgress runs
// after the commit, and only after a round whose step moved something; on PostgreSQL two claims at once take disjoint
// rows.
import type { Selectable } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../client/problem-error.js';
import type { PayoutTable } from '../../server/platform/store/schema.js';
import { claimDue, failedStepDelayMs } from '../../server/platform/workers/due-work.js';
import { bankAccount, individual, newMerchant, type TestMerchant } from '../support/merchants.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

describe.each(stores)('claimDue on $name', (kind) => {
  const service = useService(kind, { sandboxStepMs: 1000 }, { workers: false });
  let acme: TestMerchant;
  const references: string[] = [];
  const stepAt = new Map<string, number>();

  beforeAll(async () => {
    acme = await newMerchant(service);
    const payee = await unwrap(acme.a.POST('/v1/payees', { body: individual }));
    await unwrap(acme.a.POST('/v1/payees/{id}/accounts', { params: { path: { id: payee.id } }, body: bankAccount() }));
    for (let i = 0; i < 6; i++) {
      const payout = await unwrap(acme.a.POST('/v1/payouts', { body: { PayeeId: payee.id, Amount: 1 + i, Currency: 'USD' } }));
      references.push(payout.PayoutUniqueReference);
    }
    // Steps due at 1000, 2000, ... in the reverse order of creation; the last payout has none (held).
    const db = service.services.store.db;
    for (const [i, reference] of references.entries()) {
      const at = i === references.length - 1 ? null : (references.length - 1 - i) * 1000;
      await db.updateTable('payouts').set({ next_step_at: at }).where('reference', '=', reference).execute();
      if (at !== null) stepAt.set(reference, at);
    }
  });

  const claim = (now: number, batchSize: number, step: (due: Selectable<PayoutTable>[]) => Promise<number> | number) => {
    const onProgress = vi.fn();
    const taken = claimDue(service.services.store, 'payouts', { now, batchSize, onProgress }, async (_, due) => step(due));
    return { taken, onProgress };
  };

  /** The steps due by `now` that a claim takes, as when each was due. */
  async function dueAt(now: number, batchSize: number): Promise<{ taken: number; steps: (number | undefined)[] }> {
    let seen: Selectable<PayoutTable>[] = [];
    const { taken } = claim(now, batchSize, (due) => {
      seen = due;
      return 0;
    });
    return { taken: await taken, steps: seen.map((r) => stepAt.get(r.reference)) };
  }

  it('takes only the rows due by its clock, oldest step first, at most a batch', async () => {
    expect(await dueAt(999, 10)).toEqual({ taken: 0, steps: [] });
    expect(await dueAt(3000, 10)).toEqual({ taken: 3, steps: [1000, 2000, 3000] });
    expect(await dueAt(Number.MAX_SAFE_INTEGER, 2)).toEqual({ taken: 2, steps: [1000, 2000] });
    // The held payout (no step due) is never taken.
    expect(await dueAt(Number.MAX_SAFE_INTEGER, 10)).toEqual({ taken: 5, steps: [1000, 2000, 3000, 4000, 5000] });
  });

  it('calls onProgress after the commit of a round that moved something, and not after one that moved nothing', async () => {
    const idle = claim(Number.MAX_SAFE_INTEGER, 10, () => 0);
    await idle.taken;
    expect(idle.onProgress).not.toHaveBeenCalled();
    const db = service.services.store.db;
    const onProgress = vi.fn(async () => {
      // What the step wrote is committed by then: a read outside the round's transaction sees it.
      const row = await db.selectFrom('payouts').select('description').where('reference', '=', references[0]!).executeTakeFirstOrThrow();
      expect(row.description).toBe('stepped');
    });
    const taken = await claimDue(
      service.services.store,
      'payouts',
      { now: Number.MAX_SAFE_INTEGER, batchSize: 10, onProgress },
      async (trx) => {
        await trx.updateTable('payouts').set({ description: 'stepped' }).where('reference', '=', references[0]!).execute();
        return 1;
      },
    );
    expect(taken).toBe(5);
    expect(onProgress).toHaveBeenCalledTimes(1);
    await onProgress.mock.results[0]!.value;
  });

  it('puts off, and leaves as they were, rows whose step throws even alone, and calls no onProgress', async () => {
    const db = service.services.store.db;
    const before = await db.selectFrom('payouts').selectAll().where('reference', 'in', references).orderBy('reference').execute();
    const onProgress = vi.fn();
    const now = 10_000;
    const failing = claimDue(service.services.store, 'payouts', { now, batchSize: 10, onProgress }, async (trx) => {
      await trx.updateTable('payouts').set({ description: 'half done' }).where('reference', 'in', references).execute();
      throw new Error('the rail is down');
    });
    await expect(failing).rejects.toThrow(`5 of 5 payouts failed their step on their own and wait ${failedStepDelayMs} ms`);
    expect(onProgress).not.toHaveBeenCalled();
    const after = await db.selectFrom('payouts').selectAll().where('reference', 'in', references).orderBy('reference').execute();
    // Only when each is due again moved: the five that were due, by the delay; the held one not at all.
    expect(after).toEqual(before.map((row) => (row.next_step_at === null ? row : { ...row, next_step_at: now + failedStepDelayMs })));
  });

  it("moves the rest of a batch when one row's step always throws, and puts that one off", async () => {
    const db = service.services.store.db;
    const poison = references[1]!;
    const onProgress = vi.fn();
    const now = 1_000_000;
    const round = claimDue(service.services.store, 'payouts', { now, batchSize: 10, onProgress }, async (trx, due) => {
      if (due.some((row) => row.reference === poison)) throw new Error(`payout ${poison} cannot be stepped`);
      const taken = due.map((row) => row.reference);
      await trx.updateTable('payouts').set({ description: 'stepped alone', next_step_at: null }).where('reference', 'in', taken).execute();
      return taken.length;
    });
    await expect(round).rejects.toThrow('1 of 5 payouts failed their step on their own');
    expect(onProgress).toHaveBeenCalledTimes(1);
    const rows = await db
      .selectFrom('payouts')
      .select(['reference', 'description', 'next_step_at'])
      .where('reference', 'in', references)
      .execute();
    const due = references.slice(0, -1); // the last one is held
    for (const row of rows.filter((r) => due.includes(r.reference) && r.reference !== poison))
      expect(row).toMatchObject({ description: 'stepped alone', next_step_at: null });
    expect(rows.find((r) => r.reference === poison)).toMatchObject({ next_step_at: now + failedStepDelayMs });
    expect(rows.find((r) => r.reference === poison)!.description).not.toBe('stepped alone');
    // Put back as the next test expects: every one of them due.
    for (const [i, reference] of due.entries())
      await db
        .updateTable('payouts')
        .set({ next_step_at: (i + 1) * 1000, description: null })
        .where('reference', '=', reference)
        .execute();
  });

  it.runIf(kind.name === 'postgres')('gives two claims at once disjoint rows (FOR UPDATE SKIP LOCKED)', async () => {
    const store = service.services.store;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first: string[] = [];
    let second: string[] = [];
    // The first claim holds its rows until the second has claimed its own.
    const one = claimDue(store, 'payouts', { now: Number.MAX_SAFE_INTEGER, batchSize: 3 }, async (_, due) => {
      first = due.map((r) => r.reference);
      await held;
      return 0;
    });
    await vi.waitFor(() => expect(first).toHaveLength(3));
    const two = claimDue(store, 'payouts', { now: Number.MAX_SAFE_INTEGER, batchSize: 10 }, async (_, due) => {
      second = due.map((r) => r.reference);
      return 0;
    });
    expect(await two).toBe(2);
    release();
    expect(await one).toBe(3);
    expect(new Set([...first, ...second]).size).toBe(5);
  });
});
