// The dispatcher's round reads the outbox's next event of each subject (webhooks/pending-events.ts). Its cost must
// follow the events it walks, not the backlog: each walked event asks whether an earlier one of its subject is still
// pending, answered from that subject's own events (on PostgreSQL its pending ones: `events_pending_subject`,
// migration 0020; on SQLite all of them, `events_subject`: a payout has at most five). PostgreSQL
// once planned that question as an anti join that rescanned every pending event for each walked one, on a store
// whose statistics were stale (a fresh deployment's first minute, or any burst before autovacuum analyzes). Here a
// fresh store gets a backlog and no ANALYZE, and the plan is read on each store; then the same after ANALYZE. The
// rows are compared with the rule itself. And the rate-limit counts on PostgreSQL skip the write-ahead log.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextOfEachPayout, nextOfEachPayoutQuery, type Selection } from '../../server/domain/webhooks/pending-events.js';
import { openStore, type Store } from '../../server/platform/store/database.js';
import { stores } from '../support/stores.js';

const subjects = 600;
const perSubject = 4;

/** Every node of a PostgreSQL JSON plan, depth first. */
function planNodes(node: Record<string, unknown>): Record<string, unknown>[] {
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [node, ...children.flatMap(planNodes)];
}

describe.each(stores)('the outbox read on $name', (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  // Pending events, by subject; the first event of every tenth subject is dispatched already.
  const pending: { id: number; subject: string }[] = [];

  beforeAll(async () => {
    const fresh = await kind.migrated('sandbox');
    drop = fresh.drop;
    store = await openStore(fresh.url);
    const rows = [];
    for (let round = 0; round < perSubject; round++)
      for (let s = 0; s < subjects; s++)
        rows.push({
          event_id: `evt_plan_${round}_${s}`,
          type: 'payout.created',
          subject: `po_plan_${s}`,
          merchant_id: 1 + (s % 7),
          environment: 'sandbox' as const,
          payload: '{}',
          created_at: Date.now(),
          dispatched_at: round === 0 && s % 10 === 0 ? Date.now() : null,
        });
    for (let i = 0; i < rows.length; i += 500)
      await store.db
        .insertInto('events')
        .values(rows.slice(i, i + 500))
        .execute();
    const all = await store.db.selectFrom('events').select(['id', 'subject', 'dispatched_at']).orderBy('id').execute();
    for (const e of all) if (e.dispatched_at === null) pending.push({ id: Number(e.id), subject: e.subject });
  });
  afterAll(async () => {
    await store.db.destroy();
    await drop();
  });

  // In flight: the heads of the first 64 subjects, as a busy round leaves them.
  const selection = (): Selection => {
    const heads = new Map<string, number>();
    for (const e of pending) if (!heads.has(e.subject)) heads.set(e.subject, e.id);
    return { skip: [...heads.values()].slice(0, 64), merchants: [], registrations: [], limit: 50 };
  };

  it('reads the oldest pending event of each subject, oldest first, without those in flight', async () => {
    const s = selection();
    const seen = new Set<string>();
    const expected: number[] = [];
    for (const e of pending) {
      if (seen.has(e.subject)) continue;
      seen.add(e.subject);
      if (!s.skip.includes(e.id)) expected.push(e.id);
    }
    const rows = await nextOfEachPayout(store, s);
    expect(rows.map((r) => Number(r.id))).toEqual(expected.slice(0, 50));
  });

  const planChecks = [
    { when: 'with the statistics of a fresh store', analyze: false },
    { when: 'after ANALYZE', analyze: true },
  ];
  for (const { when, analyze } of planChecks)
    it(`asks each walked event's question of its subject's pending events only, ${when}`, async () => {
      if (analyze) await sql`analyze`.execute(store.db);
      const query = nextOfEachPayoutQuery(store, selection()).compile();
      if (kind.name === 'postgres') {
        const { rows } = await store.db.executeQuery<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>({
          ...query,
          sql: `explain (format json) ${query.sql}`,
        });
        const nodes = planNodes(rows[0]!['QUERY PLAN'][0].Plan);
        expect(nodes.filter((n) => n['Join Type'] === 'Anti' || n['Join Type'] === 'Semi')).toEqual([]);
        const probes = nodes.filter((n) => n['Parent Relationship'] === 'SubPlan').flatMap(planNodes);
        expect(probes.map((n) => n['Index Name'])).toContain('events_pending_subject');
      } else {
        const { rows } = await store.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
        // A walk in id order (no sort of every pending event), each walked event probing its subject's events.
        const details = rows.map((r) => r.detail);
        expect(details.some((d) => /CORRELATED/.test(d))).toBe(true);
        expect(details.some((d) => /SEARCH earlier USING (COVERING )?INDEX events_subject \(subject=\? AND id<\?\)/.test(d))).toBe(true);
        expect(details.filter((d) => /TEMP B-TREE/.test(d))).toEqual([]);
      }
    });

  it.runIf(kind.name === 'postgres')('keeps the rate-limit counts out of the write-ahead log', async () => {
    const { rows } = await sql<{ relpersistence: string }>`select relpersistence from pg_class where relname = 'rate_limits'`.execute(
      store.db,
    );
    expect(rows[0]?.relpersistence).toBe('u');
  });
});
