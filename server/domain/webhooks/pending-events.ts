// The dispatcher's reads of the outbox. A round first looks at light rows (no payload) and fetches the payloads
// of only the events it starts; most of what it looks at under load waits for a slot.
import type { Selectable } from 'kysely';
import type { Environment } from '../../platform/environment.js';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';
import type { EventTable } from '../../platform/store/schema.js';
import type { Registration } from './delivery-slots.js';
import { ownedBy, ownerKey, ownerOfKey } from '../events/owners.js';

export type PendingEvent = Pick<
  Selectable<EventTable>,
  'id' | 'event_id' | 'subject' | 'merchant_id' | 'partner_id' | 'environment' | 'type'
>;

export interface Selection {
  /** Only events after this id (the ones before were looked at already), when set. */
  after?: number;
  /** Events in flight, here or at another instance. */
  skip: number[];
  /** Owners (merchants, partners: events/owners.ts `ownerKey`) at their bound: none of their events. */
  merchants: number[];
  /** Registrations at a full target: none of the events they would receive. */
  registrations: Registration[];
  limit: number;
}

/**
 * The oldest pending event of each subject (a payout: a later one waits for it, so a payout's events go out in
 * order), oldest first, without what the selection leaves out.
 */
export function nextOfEachPayout(store: Store, s: Selection): Promise<PendingEvent[]> {
  return nextOfEachPayoutQuery(store, s).execute();
}

/** The query `nextOfEachPayout` runs (its plan is checked in test/server/outbox-plans.test.ts). */
export function nextOfEachPayoutQuery(store: Store, s: Selection) {
  // The event types each blocked registration selected, by owner and environment.
  const waiting = new Map<string, { owner: number; environment: Environment; types: Set<string> }>();
  for (const r of s.registrations) {
    const key = `${ownerKey(r)}:${r.environment}`;
    const entry = waiting.get(key) ?? { owner: ownerKey(r), environment: r.environment, types: new Set<string>() };
    for (const type of JSON.parse(r.events) as string[]) entry.types.add(type);
    waiting.set(key, entry);
  }
  const blockedMerchants = s.merchants.filter((key) => key > 0);
  const blockedPartners = s.merchants.filter((key) => key < 0).map((key) => -key);
  return store.db
    .selectFrom('events as e')
    .select(['e.id', 'e.event_id', 'e.subject', 'e.merchant_id', 'e.partner_id', 'e.environment', 'e.type'])
    .where((eb) =>
      eb.and([
        eb('e.dispatched_at', 'is', null),
        ...(s.after !== undefined ? [eb('e.id', '>', s.after)] : []),
        ...(s.skip.length > 0 ? [eb('e.id', 'not in', inList(s.skip))] : []),
        ...(blockedMerchants.length > 0
          ? [eb.or([eb('e.partner_id', 'is not', null), eb('e.merchant_id', 'not in', inList(blockedMerchants))])]
          : []),
        ...(blockedPartners.length > 0
          ? [eb.or([eb('e.partner_id', 'is', null), eb('e.partner_id', 'not in', inList(blockedPartners))])]
          : []),
        ...[...waiting.values()].map((w) =>
          eb.not(
            eb.and([ownedBy(ownerOfKey(w.owner), 'e')(eb), eb('e.environment', '=', w.environment), eb('e.type', 'in', [...w.types])]),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('events as earlier')
              .select('earlier.id')
              .whereRef('earlier.subject', '=', 'e.subject')
              .whereRef('earlier.id', '<', 'e.id')
              .where('earlier.dispatched_at', 'is', null)
              // A fence: with an OFFSET, PostgreSQL keeps the check a probe per walked event (of
              // `events_pending_subject`: that subject's few pending events) rather than turning it into an anti
              // join, which it planned against every pending event whenever its statistics were stale (a
              // backlog of thousands, rescanned for each walked event). SQLite probes per row anyway (of
              // `events_subject`).
              .limit(1)
              .offset(0),
          ),
        ),
      ]),
    )
    .orderBy('e.id')
    .limit(s.limit);
}

/** The newest event's id (0 when there is none). */
export async function latestEventId(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('latest'))
    .executeTakeFirst();
  return Number(row?.latest ?? 0);
}

/** The payloads of the events a round starts, by id. */
export async function payloadsOf(store: Store, ids: number[]): Promise<Map<number, string>> {
  const payloads = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = inList(ids.slice(i, i + 500));
    const rows = await store.db.selectFrom('events').select(['id', 'payload']).where('id', 'in', part).execute();
    for (const row of rows) payloads.set(Number(row.id), row.payload);
  }
  return payloads;
}
