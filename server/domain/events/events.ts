// The events API (`listEvents`, `getEvent`; a partner's: `listPartnerEvents`, `getPartnerEvent`): an owner's events
// (events/owners.ts) of the last 30 days, each with the body its
// deliveries carried, so a receiver that missed deliveries recovers them with the same ids. Events older than
// that are deleted, with their delivery records, by `purge` (the dispatcher's sweep calls it).
import type { components, operations } from '../../../generated/merchant/schema.js';
import { Problem } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';
import { optionalTimestamp } from '../../platform/store/timestamps.js';
import { merchantOwner, ownedBy, type Owner, partnerOwner } from './owners.js';
import type { Kysely } from 'kysely';
import { compiledQuery } from '../../platform/store/compiled-queries.js';
import type { Database } from '../../platform/store/schema.js';
import { cursorPage, textCursorList } from '../../platform/store/cursor.js';

type Schemas = components['schemas'];
export type Event = Schemas['Event'];
type ListQuery = NonNullable<operations['listEvents']['parameters']['query']>;
/** A page of the owner's events: the bodies as stored, typed as the caller's contract names them. */
export interface EventPage<E = Event> {
  data: E[];
  nextCursor: string | null;
}

export const eventRetentionMs = 30 * 24 * 60 * 60 * 1000;
const eventIdPattern = /^evt_[0-9a-hjkmnp-tv-z]{26}$/;

// Newest first in the order the events were written (their internal ids: two events of one payout can share a
// millisecond, so the random part of their public ids would not order them); the cursor is the last public id seen.
// Cursors issued before store/cursor.ts were the bare event id, still read.
const eventCursors = textCursorList('event', eventIdPattern, { readsBarePositions: true });

/** A page of an owner's events (`Events.list`); built and compiled once per shape of its filters. */
const ownersPage = compiledQuery(
  (
    db: Kysely<Database>,
    v: {
      merchant: number | undefined;
      partner: number | undefined;
      from: number;
      to: number | undefined;
      types: string[] | undefined;
      subject: string | undefined;
      after: string | undefined;
      limit: number;
    },
  ) =>
    db
      .selectFrom('events')
      .select(['id', 'event_id', 'payload'])
      .where(ownedBy(v.partner === undefined ? merchantOwner(v.merchant!) : partnerOwner(v.partner)))
      .where('created_at', '>=', v.from)
      .$if(v.to !== undefined, (q) => q.where('created_at', '<', v.to!))
      .$if(v.types !== undefined, (q) => q.where('type', 'in', v.types!))
      .$if(v.subject !== undefined, (q) => q.where('subject', '=', v.subject!))
      .$if(v.after !== undefined, (q) => q.where('id', '<', (eb) => eb.selectFrom('events').select('id').where('event_id', '=', v.after!)))
      .orderBy('id', 'desc')
      .limit(v.limit),
);

export class Events {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async list<E = Event>(owner: Owner, query: ListQuery): Promise<EventPage<E>> {
    const from = optionalTimestamp(query.CreatedFrom, { parameter: 'CreatedFrom' });
    const to = optionalTimestamp(query.CreatedTo, { parameter: 'CreatedTo' });
    if (from !== undefined && to !== undefined && to < from)
      throw new Problem('business-rule', 'CreatedTo is before CreatedFrom.', {
        errors: [{ parameter: 'CreatedTo', detail: 'must not be before CreatedFrom' }],
      });
    const { page, nextCursor } = await cursorPage(
      eventCursors,
      query,
      (after, limit) =>
        ownersPage(this.store.db, {
          merchant: owner.kind === 'merchant' ? owner.id : undefined,
          partner: owner.kind === 'partner' ? owner.id : undefined,
          from: Math.max(from ?? 0, this.now() - eventRetentionMs),
          to,
          types: query.Type !== undefined && query.Type.length > 0 ? inList(query.Type) : undefined,
          subject: query.PayoutUniqueReference,
          after,
          limit,
        }),
      (row) => row.event_id,
    );
    return { data: page.map((r) => JSON.parse(r.payload) as E), nextCursor };
  }

  async get<E = Event>(owner: Owner, eventId: string): Promise<E> {
    const row = await this.store.db
      .selectFrom('events')
      .select('payload')
      .where('event_id', '=', eventId)
      .where(ownedBy(owner))
      .where('created_at', '>=', this.now() - eventRetentionMs)
      .executeTakeFirst();
    if (!row) throw new Problem('not-found', `No event ${eventId} exists for this ${owner.kind} (events are kept 30 days).`);
    return JSON.parse(row.payload) as E;
  }

  /** Deletes up to `limit` events older than 30 days and their delivery records; returns how many events. */
  async purge(limit = 1000): Promise<number> {
    const cutoff = this.now() - eventRetentionMs;
    return this.store.db.transaction().execute(async (trx) => {
      const ids = (
        await trx.selectFrom('events').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(limit).execute()
      ).map((r) => Number(r.id));
      if (ids.length === 0) return 0;
      await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', inList(ids)).execute();
      await trx.deleteFrom('events').where('id', 'in', inList(ids)).execute();
      return ids.length;
    });
  }
}
