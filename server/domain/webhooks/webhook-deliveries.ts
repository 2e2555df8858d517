// A registration's deliveries (`listWebhookDeliveries`), test deliveries (`testWebhook`) and redeliveries
// (`redeliverWebhookDelivery`: the same event, same `webhook-id`, sent again now as the next attempt, under the same
// delivery slots; a repeat is harmless to a receiver that deduplicates, so it takes no Idempotency-Key). A test is an event
// like any other (`webhook.test`, read by `getEvent`), sent at once to one registration by the dispatcher's own
// signing and posting, under its delivery slots, and recorded as a delivery. Only the newest `keptTestEvents` tests
// of a registration are kept (with their deliveries): repeated tests cannot fill the store for 30 days.
import type { components, operations } from '../../../generated/merchant/schema.js';
import { eventRow } from '../events/event-rows.js';
import { Problem } from '../../platform/problems.js';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { takeTurn } from '../../platform/store/turns.js';
import { noMerchant, ownedBy, type Owner } from '../events/owners.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';
import type { WebhookRegistrations } from './webhook-registrations.js';
import { cursorPage, type CursorList } from '../../platform/store/cursor.js';

type Schemas = components['schemas'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
type ListQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

/** The test events kept per registration (openapi/DECISIONS.md, "Webhook management"). */
export const keptTestEvents = 100;

// Newest first by event (internal ids follow the order events were written), then by attempt; the cursor is the
// last event id and attempt seen. A cursor without an attempt (issued before attempts) means all of that event;
// cursors issued before store/cursor.ts were the bare position, still read.
const deliveryCursors: CursorList<{ eventId: string; attempt: number }> = {
  kind: 'delivery',
  parse: (text) => {
    const match = /^(evt_[0-9a-hjkmnp-tv-z]{26})(?:\.([1-9][0-9]{0,6}))?$/.exec(text);
    return match ? { eventId: match[1]!, attempt: match[2] === undefined ? 1 : Number(match[2]) } : undefined;
  },
  format: ({ eventId, attempt }) => `${eventId}.${attempt}`,
  readsBarePositions: true,
};

export class WebhookDeliveries {
  constructor(
    private readonly store: Store,
    private readonly registrations: WebhookRegistrations,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  private select() {
    return this.store.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select([
        'e.event_id',
        'e.type',
        'd.webhook_id',
        'd.attempt',
        'd.url',
        'd.outcome',
        'd.status_code',
        'd.duration_ms',
        'd.error',
        'd.response_excerpt',
        'd.attempted_at',
        'd.event_id as internal_id',
      ]);
  }

  async list(owner: Owner, webhookId: string, query: ListQuery): Promise<Schemas['WebhookDeliveryList']> {
    await this.registrations.find(owner, webhookId);
    const { page, nextCursor } = await cursorPage(
      deliveryCursors,
      query,
      async (after, limit) => {
        let q = this.select().where('d.webhook_id', '=', webhookId);
        if (after !== undefined) {
          const seen = await this.store.db.selectFrom('events').select('id').where('event_id', '=', after.eventId).executeTakeFirst();
          // An event purged since the cursor was issued: nothing older is kept either.
          const internalId = seen ? Number(seen.id) : 0;
          q = q.where((eb) =>
            eb.or([eb('d.event_id', '<', internalId), eb.and([eb('d.event_id', '=', internalId), eb('d.attempt', '<', after.attempt)])]),
          );
        }
        return q.orderBy('d.event_id', 'desc').orderBy('d.attempt', 'desc').limit(limit).execute();
      },
      (row) => ({ eventId: row.event_id, attempt: Number(row.attempt) }),
    );
    return { data: page.map(toDelivery), nextCursor };
  }

  /** Sends a `webhook.test` event to the registration now and answers with the delivery's outcome. */
  async test(owner: Owner, webhookId: string): Promise<WebhookDelivery> {
    const registration = await this.registrations.find(owner, webhookId);
    const { event } = await this.dispatcher.deliverNow(registration, () => {
      const at = Date.now();
      return this.store.db
        .insertInto('events')
        .values(
          eventRow({
            type: 'webhook.test' as const,
            subject: registration.id,
            ...(owner.kind === 'merchant' ? { merchantId: owner.id } : { merchantId: noMerchant, partnerId: owner.id }),
            environment: registration.environment,
            at,
            body: (envelope): Schemas['WebhookTestEvent'] => ({ ...envelope, timestamp: isoTimestamp(at), webhook_id: registration.id }),
            // Sent here, not by the rounds.
            dispatchedAt: at,
          }),
        )
        .returning(['id', 'event_id', 'subject', 'merchant_id', 'partner_id', 'environment', 'type', 'payload'])
        .executeTakeFirstOrThrow();
    });
    const row = await this.select().where('d.webhook_id', '=', webhookId).where('d.event_id', '=', event.id).executeTakeFirstOrThrow();
    await this.pruneTests(webhookId);
    return toDelivery(row);
  }

  /**
   * Sends the event of one of the registration's deliveries again, now, to its current URL, and answers with the
   * new attempt. Not-found unless the registration is the owner's and the event was delivered to it (and is
   * still kept); a disabled registration is refused (conflict), as it receives nothing until enabled again.
   */
  async redeliver(owner: Owner, webhookId: string, eventId: string): Promise<WebhookDelivery> {
    const registration = await this.registrations.find(owner, webhookId);
    const delivered = () =>
      this.store.db
        .selectFrom('events as e')
        .innerJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
        .select(['e.id', 'e.event_id', 'e.subject', 'e.merchant_id', 'e.partner_id', 'e.environment', 'e.type', 'e.payload'])
        .where('e.event_id', '=', eventId)
        .where(ownedBy(owner, 'e'))
        .where('d.webhook_id', '=', webhookId)
        .limit(1)
        .executeTakeFirst();
    // Looked at before a slot is taken, so an unknown delivery answers 404 even when every slot is busy.
    if (!(await delivered()))
      throw new Problem('not-found', `Registration ${webhookId} has no delivery of event ${eventId}.`, {
        errors: [{ parameter: 'deliveryId', detail: 'no such delivery' }],
      });
    if (Number(registration.enabled) !== 1)
      throw new Problem(
        'conflict',
        `Registration ${webhookId} is disabled; enable it (${owner.kind === 'merchant' ? 'updateWebhook' : 'updatePartnerWebhook'}) to send deliveries to it again.`,
      );
    const { event, attempt } = await this.dispatcher.deliverNow(
      registration,
      async () => {
        // Purged since it was looked at: nothing to send.
        const row = await delivered();
        if (!row) throw new Problem('not-found', `Registration ${webhookId} has no delivery of event ${eventId}.`);
        return row;
      },
      async (e) => {
        const last = await this.store.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.max('attempt').as('attempt'))
          .where('event_id', '=', e.id)
          .where('webhook_id', '=', webhookId)
          .executeTakeFirst();
        return Number(last?.attempt ?? 0) + 1;
      },
    );
    const row = await this.select()
      .where('d.webhook_id', '=', webhookId)
      .where('d.event_id', '=', event.id)
      .where('d.attempt', '=', attempt)
      .executeTakeFirstOrThrow();
    return toDelivery(row);
  }

  /**
   * Deletes the registration's test events older than its newest `keptTestEvents`, with their deliveries. A test
   * still being sent (no outcome yet) is left to a later prune, so a test never loses its event mid-flight.
   */
  private async pruneTests(webhookId: string): Promise<void> {
    const oldestKept = await this.store.db
      .selectFrom('events as e')
      .select('e.id')
      .where('e.type', '=', 'webhook.test')
      .where('e.subject', '=', webhookId)
      .orderBy('e.id', 'desc')
      .offset(keptTestEvents - 1)
      .limit(1)
      .executeTakeFirst();
    if (!oldestKept) return;
    await this.store.db.transaction().execute(async (trx) => {
      // Concurrent tests of one registration prune one at a time: two deleting the same rows could deadlock.
      await takeTurn(trx, this.store.dialect, `webhook-tests\n${webhookId}`);
      const ids = (
        await trx
          .selectFrom('events as e')
          .innerJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
          .select('e.id')
          .where('e.type', '=', 'webhook.test')
          .where('e.subject', '=', webhookId)
          .where('e.id', '<', oldestKept.id)
          .where('d.outcome', '<>', 'sending')
          .limit(1000)
          .execute()
      ).map((r) => Number(r.id));
      if (ids.length === 0) return;
      await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', inList(ids)).execute();
      await trx.deleteFrom('events').where('id', 'in', inList(ids)).execute();
    });
  }
}

function toDelivery(row: {
  event_id: string;
  type: string;
  webhook_id: string;
  attempt: number;
  url: string;
  outcome: WebhookDelivery['outcome'];
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  attempted_at: number;
}): WebhookDelivery {
  return {
    eventId: row.event_id,
    eventType: row.type as WebhookDelivery['eventType'],
    webhookId: row.webhook_id,
    url: row.url,
    attempt: Number(row.attempt),
    outcome: row.outcome,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.error,
    responseExcerpt: row.response_excerpt,
    attemptedOn: isoTimestamp(row.attempted_at),
  };
}
