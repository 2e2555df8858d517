// What is still under way for payouts and their webhooks, read from the store. Before a test asserts that
// something did NOT happen (no second delivery, no duplicate event), it waits until this is empty: each payout
// final, each of its events dispatched, each delivery's answer recorded. Nothing is sent after that, so a late
// copy would already have arrived and is caught, where a fixed sleep could only hope so.
import { sql } from 'kysely';
import type { Store } from '../../server/platform/store/database.js';

const finalStates = ['completed', 'failed', 'cancelled'] as const;

export interface Unsettled {
  /** Only these payouts (all when not given). */
  payouts?: string[];
  /** Only deliveries claimed at or after this time (ms): older claims may be a killed process's, never answered. */
  claimedSince?: number;
  /** Events and their deliveries only, for a suite whose payouts are held where they are (a long sandbox step). */
  deliveriesOnly?: boolean;
}

/** What is not settled yet, one line each (the first 20 of each kind): empty once everything is. */
export async function unsettled(store: Store, only: Unsettled = {}): Promise<string[]> {
  if (only.payouts?.length === 0) return [];
  const payouts = await store.db
    .selectFrom('payouts')
    .$if(only.deliveriesOnly === true, (q) => q.where(sql<boolean>`1 = 0`))
    .select(['reference', 'status'])
    .where('status', 'not in', finalStates)
    .$if(only.payouts !== undefined, (q) => q.where('reference', 'in', only.payouts!))
    .limit(20)
    .execute();
  const events = await store.db
    .selectFrom('events')
    .select(['id', 'subject', 'type'])
    .where('dispatched_at', 'is', null)
    .$if(only.payouts !== undefined, (q) => q.where('subject', 'in', only.payouts!))
    .limit(20)
    .execute();
  const deliveries = await store.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.event_id', 'd.url', 'e.subject', 'e.type'])
    .where('d.outcome', '=', 'sending')
    .$if(only.claimedSince !== undefined, (q) => q.where('d.attempted_at', '>=', only.claimedSince!))
    .$if(only.payouts !== undefined, (q) => q.where('e.subject', 'in', only.payouts!))
    .limit(20)
    .execute();
  return [
    ...payouts.map((p) => `payout ${p.reference} is ${p.status}`),
    ...events.map((e) => `event ${e.id} (${e.subject} ${e.type}) is not dispatched`),
    ...deliveries.map((d) => `the delivery of event ${d.event_id} (${d.subject} ${d.type}) to ${d.url} has no answer recorded`),
  ];
}
