// Delivers the outbox (`events`) to the matching registrations: each event once to each enabled registration of
// its owner (its merchant, or the partner of a partner's copy: events/owners.ts) and environment that selected its type. A delivery is claimed (a row keyed by event and registration)
// before the POST, so no event is ever sent twice, even by two instances or after a crash; the seed's rule is
// at most once, with no resend. A delivery whose sender died between claim and record is marked `unknown` a
// minute later, never resent. Sending again is explicit: a caller's redelivery (`deliverNow`), or the retries a
// registration opted into (`retryDue`: a failed attempt's stored `retry_at`); each is a new attempt, never a
// resend of a claimed one.
//
// One receiver's slowness delays no one else's events:
// - A round does not wait for its POSTs. It selects pending events, starts those that fit the delivery slots
//   (`delivery-slots.ts`: bounds per target, per merchant and overall) and returns. Each delivery gives its
//   slot back when its POST ends; outcomes are written in batches as they come (`delivery-records.ts`), and
//   each write wakes the next round. A receiver that never answers holds `perTarget` slots for the timeout,
//   and nothing else. Test deliveries (`deliverNow`) take their slots under the same bounds, or are refused.
// - Order per payout (an event's subject): a round selects only the oldest pending event of each subject, leaving
//   out events in flight here, so a payout's next event is taken only once the previous one is recorded dispatched. An event
//   whose claim another instance holds and is still sending is left to it (looked at again after `pollMs`).
// - Fair selection: events that cannot start (their merchant at its bound, or a registration at a full target)
//   are left out of the query, so a hanging receiver's backlog does not fill the batch; what is selected is
//   offered to the slots in merchant turns (`merchant-turns.ts`), the least busy merchants first.
// - Cost: until a slot or a payout is freed (or `pollMs` passes), a round looks only at events written since
//   the last one, so a blocked backlog is not read again at every new event.
// Known limit: the unit of order is the payout, so a merchant's fast registration waits for that payout's
// previous event at the merchant's slow one.
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Store } from '../../platform/store/database.js';
import type { EventTable } from '../../platform/store/schema.js';
import { Events } from '../events/events.js';
import { Problem } from '../../platform/problems.js';
import { inList } from '../../platform/store/in-list.js';
import { PollingWorker } from '../../platform/workers/polling-worker.js';
import { TargetRefused, checkTarget, type Resolver } from './address-guard.js';
import { DeliveryClaims } from './delivery-claims.js';
import { DeliveryRecords, type Outcome } from './delivery-records.js';
import { DeliverySlots, type DeliveryLimits, type Registration } from './delivery-slots.js';
import { inMerchantTurns } from './merchant-turns.js';
import { latestEventId, nextOfEachPayout, payloadsOf, type PendingEvent } from './pending-events.js';
import { post } from './webhook-delivery.js';
import { ownerKey } from '../events/owners.js';

export interface WebhookDispatcherSettings {
  allowPrivate: boolean;
  timeoutMs: number;
  pollMs: number;
  /** Pending events a round looks at. */
  batchSize: number;
  /** Pause before a round asked for during the previous one, to take a burst of new events together. */
  settleMs?: number;
  /** Deliveries in flight at once: per target (scheme, host and port), per merchant and overall. */
  limits: DeliveryLimits;
  resolve?: Resolver;
  /**
   * A delivery still `sending` this long after its claim lost its sender (a crash between the POST and its
   * record) and is marked `unknown`. Far longer than any POST, so a live sender records first; if one ever
   * records later, its outcome replaces `unknown`. Default 60 s.
   */
  unsettledAfterMs?: number;
  /** The clock of retry schedules (tests move it instead of waiting). Default `Date.now`. */
  now?: () => number;
}

/**
 * Opt-in retries (`retries` on a registration): the pause before each further attempt after a failed one, about
 * 24 hours in all. An event gets at most this many attempts beyond the first, redeliveries included.
 */
export const retrySchedule = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000];

/** A failure worth trying again: no answer (timeout, connection), a 5xx, 408 or 429. Other 4xx are final. */
export const retryable = (o: Outcome): boolean =>
  o.outcome === 'failed' && (o.statusCode === null || o.statusCode >= 500 || o.statusCode === 408 || o.statusCode === 429);

type OutboxEvent = PendingEvent & Pick<Selectable<EventTable>, 'payload'>;

/** The delivery log's row for an attempt being sent: the one claimed first and every retry's. */
const sendingRow = (event: Pick<OutboxEvent, 'id' | 'event_id'>, registration: Pick<Registration, 'id' | 'url'>, attempt: number) => ({
  event_id: event.id,
  webhook_id: registration.id,
  attempt,
  message_id: event.event_id,
  url: registration.url,
  outcome: 'sending' as const,
  status_code: null,
  error: null,
  duration_ms: null,
  response_excerpt: null,
  attempted_at: Date.now(),
  retry_at: null,
});

/** Past the timeout by this much, a claim another sender holds is taken as abandoned for ordering purposes. */
const liveClaimGraceMs = 5_000;

export class WebhookDispatcher {
  private readonly worker: PollingWorker;
  private readonly claims: DeliveryClaims;
  private readonly records: DeliveryRecords;
  private readonly slots: DeliverySlots;
  /** Events started here and not yet recorded: their payouts are busy. */
  private readonly busy = new Set<number>();
  /** Events another instance is sending, by when to look at them again. */
  private readonly elsewhere = new Map<number, number>();
  private readonly sending = new Set<Promise<void>>();
  private lastSweep = 0;
  private readonly events: Events;
  private readonly unsettledAfterMs: number;
  /** Every event up to this id was looked at by a selection since the last `rescan`. */
  private lookedAt = 0;
  /** A slot or a payout was freed: events looked at before may start now. */
  private rescan = true;
  private lastFullAt = 0;

  constructor(
    private readonly store: Store,
    private readonly settings: WebhookDispatcherSettings,
    private readonly log: Logger,
  ) {
    this.worker = new PollingWorker('webhook-dispatcher', () => this.round(), settings, log);
    this.claims = new DeliveryClaims(store);
    this.records = new DeliveryRecords(store, log, { settleMs: settings.settleMs ?? 0, retryMs: settings.pollMs });
    this.slots = new DeliverySlots(settings.limits);
    this.unsettledAfterMs = settings.unsettledAfterMs ?? 60_000;
    this.events = new Events(store);
  }

  get limits(): DeliveryLimits {
    return this.settings.limits;
  }

  start = (): void => this.worker.start();
  /** Stops taking events, lets the deliveries in flight end (within the timeout) and records them. */
  stop = async (): Promise<void> => {
    await this.worker.stop();
    await Promise.allSettled([...this.sending]);
    await this.records.stop();
  };
  /** Send pending events now (after new ones were written), instead of at the next poll. */
  wake = (): void => this.worker.wake();

  /**
   * Starts the deliveries of the pending events that fit the slots; does not wait for them. Returns the number
   * of events it looked at when it started some of a full batch (so the worker runs another round at once),
   * otherwise 0.
   */
  async round(): Promise<number> {
    if (Date.now() - this.lastSweep >= this.unsettledAfterMs) {
      this.lastSweep = Date.now();
      await this.settleAbandoned();
      await this.events.purge();
    }
    if (this.slots.free === 0) return 0;
    await this.retryDue();
    const now = Date.now();
    for (const [id, until] of this.elsewhere) if (until <= now) this.elsewhere.delete(id);
    // Unless a slot or a payout was freed since (or a poll interval passed: another instance may have moved
    // on), what was looked at before still cannot start: look only at events written since.
    const full = this.rescan || now - this.lastFullAt >= this.settings.pollMs;
    const latest = await latestEventId(this.store);
    if (!full && latest <= this.lookedAt) return 0;
    if (full) {
      this.rescan = false;
      this.lastFullAt = now;
    }
    const blocked = this.slots.blocked();
    const events = await nextOfEachPayout(this.store, {
      after: full ? undefined : this.lookedAt,
      skip: [...this.busy, ...this.elsewhere.keys()],
      merchants: blocked.merchants,
      registrations: blocked.registrations,
      limit: this.settings.batchSize,
    });
    if (events.length < this.settings.batchSize) this.lookedAt = Math.max(this.lookedAt, latest);
    if (events.length === 0) return 0;
    // The registrations of the events' owners (merchants, partners: events/owners.ts).
    const owners = [...new Set(events.map(ownerKey))];
    const merchants = owners.filter((key) => key > 0);
    const partners = owners.filter((key) => key < 0).map((key) => -key);
    const registrations = await this.store.db
      .selectFrom('webhooks')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(merchants.length > 0 ? [eb.and([eb('partner_id', 'is', null), eb('merchant_id', 'in', inList(merchants))])] : []),
          ...(partners.length > 0 ? [eb('partner_id', 'in', inList(partners))] : []),
        ]),
      )
      .where('deleted_at', 'is', null)
      .where('enabled', '=', 1)
      .execute();
    const blockedBefore = this.slots.blockedVersion;
    this.slots.note(registrations);
    const starting: { event: PendingEvent; targets: Registration[] }[] = [];
    for (const event of inMerchantTurns(events, (m) => this.slots.inFlightOf(m))) {
      const targets = registrations.filter(
        (r) =>
          ownerKey(r) === ownerKey(event) && r.environment === event.environment && (JSON.parse(r.events) as string[]).includes(event.type),
      );
      if (!this.slots.take(ownerKey(event), targets)) continue;
      this.busy.add(Number(event.id));
      starting.push({ event, targets });
    }
    let payloads: Map<number, string>;
    try {
      payloads = await payloadsOf(
        this.store,
        starting.map((s) => Number(s.event.id)),
      );
    } catch (err) {
      for (const { event, targets } of starting) this.giveBack(event, targets);
      throw err;
    }
    for (const { event, targets } of starting) {
      const payload = payloads.get(Number(event.id));
      if (payload === undefined) {
        this.giveBack(event, targets); // gone since it was selected (purged): nothing to send
        continue;
      }
      const sending: Promise<void> = this.send({ ...event, payload }, targets).finally(() => this.sending.delete(sending));
      this.sending.add(sending);
    }
    // A full batch may have more behind it: look again at once if this one started something or left more out.
    const progressed = starting.length > 0 || this.slots.blockedVersion > blockedBefore;
    return events.length >= this.settings.batchSize && progressed ? events.length : 0;
  }

  /** Undoes the start of an event that will not be sent now: its slots and its payout are free again. */
  private giveBack(event: PendingEvent, targets: Registration[]): void {
    for (const r of targets) this.slots.release(r);
    this.busy.delete(Number(event.id));
    this.rescan = true;
  }

  /** Claims, sends and records one event's deliveries; the slots it took are given back as each POST ends. */
  private async send(event: OutboxEvent, targets: Registration[]): Promise<void> {
    const eventId = Number(event.id);
    const held = new Set(targets);
    const release = (r: Registration) => {
      if (!held.delete(r)) return;
      this.slots.release(r);
      this.rescan = true;
    };
    const written = () => {
      this.busy.delete(eventId);
      this.rescan = true;
      this.wake();
    };
    try {
      const won = await Promise.all(targets.map((r) => this.claim(event, r)));
      const lost = targets.filter((_, i) => !won[i]);
      lost.forEach(release);
      // Unknown (the check failed) counts as still being sent there: the event waits and is looked at again.
      const elsewhere = lost.length > 0 && (await this.sendingElsewhere(eventId, lost).catch(() => true));
      const ours = targets.filter((_, i) => won[i]);
      const outcomes = await Promise.all(
        ours.map((r) =>
          this.deliver(event, r)
            .then((o) => this.scheduled(o, r))
            .finally(() => release(r)),
        ),
      );
      if (elsewhere) this.elsewhere.set(eventId, Date.now() + this.settings.pollMs);
      this.records.add({ outcomes, eventId: elsewhere ? undefined : eventId, written });
    } catch (err) {
      // The store failed a claim: nothing was sent; a later round takes the event again.
      this.log.error({ err, event: eventId }, 'webhook delivery not started');
      written();
    } finally {
      for (const r of held) release(r);
    }
  }

  /** The outcome with its next attempt's time, when it failed retryably at a registration with retries. */
  private scheduled(outcome: Outcome, registration: Registration): Outcome {
    const pause = retrySchedule[outcome.attempt - 1];
    if (Number(registration.retries) !== 1 || !retryable(outcome) || pause === undefined) return outcome;
    return { ...outcome, retryAt: (this.settings.now ?? Date.now)() + pause };
  }

  /**
   * Starts the retries that are due (failed attempts whose `retry_at` passed), under the delivery slots; those that
   * find no slot stay due for a later round. Each is taken by one compare-and-set of its `retry_at`, in the same
   * commit as the next attempt's claim, so no retry is sent twice, by two instances or after a crash (a claim whose
   * sender died becomes `unknown`, like any). A registration deleted, disabled or no longer retrying, or an event
   * delivered since (a redelivery), ends the schedule.
   */
  private async retryDue(): Promise<void> {
    const now = (this.settings.now ?? Date.now)();
    const due = await this.store.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'webhook_id', 'attempt', 'retry_at'])
      .where('retry_at', '<=', now)
      .orderBy('retry_at')
      .limit(this.settings.batchSize)
      .execute();
    if (due.length === 0) return;
    const registrations = new Map(
      (
        await this.store.db
          .selectFrom('webhooks')
          .selectAll()
          .where('id', 'in', inList([...new Set(due.map((d) => d.webhook_id))]))
          .execute()
      ).map((r) => [r.id, r]),
    );
    for (const d of due) {
      const registration = registrations.get(d.webhook_id);
      const live =
        registration && registration.deleted_at === null && Number(registration.enabled) === 1 && Number(registration.retries) === 1;
      if (live && !this.slots.take(ownerKey(registration), [registration])) continue;
      const next = await this.store.db.transaction().execute(async (trx) => {
        const taken = await trx
          .updateTable('webhook_deliveries')
          .set({ retry_at: null })
          .where('event_id', '=', d.event_id)
          .where('webhook_id', '=', d.webhook_id)
          .where('attempt', '=', d.attempt)
          .where('retry_at', '=', Number(d.retry_at))
          .executeTakeFirst();
        if (!live || Number(taken.numUpdatedRows) !== 1) return undefined;
        const attempts = await trx
          .selectFrom('webhook_deliveries')
          .select(['attempt', 'outcome'])
          .where('event_id', '=', d.event_id)
          .where('webhook_id', '=', d.webhook_id)
          .execute();
        if (attempts.some((a) => a.outcome === 'delivered')) return undefined;
        const event = await trx
          .selectFrom('events')
          .select(['id', 'event_id', 'subject', 'merchant_id', 'partner_id', 'environment', 'type', 'payload'])
          .where('id', '=', d.event_id)
          .executeTakeFirst();
        if (!event) return undefined;
        const attempt = Math.max(...attempts.map((a) => Number(a.attempt))) + 1;
        await trx
          .insertInto('webhook_deliveries')
          .values(sendingRow(event, registration, attempt))
          .execute();
        return { event, attempt };
      });
      if (!live) continue;
      if (!next) {
        this.slots.release(registration);
        continue;
      }
      const sending: Promise<void> = this.deliver(next.event, registration, next.attempt)
        .then((o) => new Promise<void>((written) => this.records.add({ outcomes: [this.scheduled(o, registration)], written })))
        .catch((err: unknown) => this.log.error({ err, event: next.event.event_id }, 'webhook retry not recorded'))
        .finally(() => {
          this.slots.release(registration);
          this.rescan = true;
          this.sending.delete(sending);
          this.wake();
        });
      this.sending.add(sending);
    }
  }

  /** True when this claim won; false when another round or instance claimed the delivery first. */
  private claim(event: OutboxEvent, registration: Registration, attempt = 1): Promise<boolean> {
    return this.claims.claim(sendingRow(event, registration, attempt));
  }

  /**
   * Whether a delivery of the event claimed elsewhere is still being sent by a live sender: then the event
   * (and its payout) waits for that sender to record it. A claim older than the timeout and a grace is taken
   * as abandoned: the event is marked dispatched here, and the sweep marks the claim `unknown` later.
   */
  private async sendingElsewhere(eventId: number, lost: Registration[]): Promise<boolean> {
    const since = Date.now() - this.settings.timeoutMs - liveClaimGraceMs;
    const rows = await this.store.db
      .selectFrom('webhook_deliveries')
      .select(['outcome', 'attempted_at'])
      .where('event_id', '=', eventId)
      .where('attempt', '=', 1)
      .where(
        'webhook_id',
        'in',
        lost.map((r) => r.id),
      )
      .execute();
    return rows.some((r) => r.outcome === 'sending' && Number(r.attempted_at) > since);
  }

  /**
   * Marks `unknown` the deliveries claimed more than `unsettledAfterMs` ago that never got an outcome: their
   * sender stopped after the claim, before or after its POST, so whether the target received the event is
   * not known. They are not sent again (at most once). Returns how many it marked.
   */
  async settleAbandoned(now = Date.now()): Promise<number> {
    const cutoff = now - this.unsettledAfterMs;
    const result = await this.store.db
      .updateTable('webhook_deliveries')
      .set({ outcome: 'unknown', error: 'the sending process stopped before it recorded an answer; not sent again' })
      .where('outcome', '=', 'sending')
      .where('attempted_at', '<', cutoff)
      .executeTakeFirst();
    const marked = Number(result.numUpdatedRows);
    if (marked > 0) this.log.warn({ deliveries: marked }, 'webhook deliveries without a recorded outcome marked unknown');
    return marked;
  }

  /**
   * Sends one event to one registration at once, outside the rounds (`testWebhook`, `redeliverWebhookDelivery`:
   * the caller waits for the answer), and records the outcome like any delivery. It takes a delivery slot first,
   * like a round's delivery, so these are held to the same bounds per target and per merchant; `load` writes or
   * reads the event only once the slot is held (a new event must be written dispatched, so no round takes it).
   * No slot free: 429, and nothing is written. `nextAttempt` numbers a redelivery (the first attempt otherwise);
   * two redeliveries numbering the same attempt at once: the one whose claim lost numbers again.
   */
  async deliverNow(
    registration: Registration,
    load: () => Promise<OutboxEvent>,
    nextAttempt?: (event: OutboxEvent) => Promise<number>,
  ): Promise<{ event: OutboxEvent; attempt: number }> {
    if (!this.slots.take(ownerKey(registration), [registration])) {
      // A held slot frees when its POST ends: at the latest when the delivery times out.
      const retryAfter = Math.max(1, Math.ceil(this.settings.timeoutMs / 1000));
      throw new Problem(
        'rate-limited',
        `Every delivery slot of this receiver or of this merchant is in use; retry after ${retryAfter} seconds.`,
        { retryAfterSeconds: retryAfter },
      );
    }
    try {
      const event = await load();
      let attempt = nextAttempt ? await nextAttempt(event) : 1;
      let claimed = await this.claim(event, registration, attempt);
      // Concurrent redeliveries number past each other; each lost claim means another attempt was recorded.
      for (let tries = 0; !claimed && nextAttempt && tries < 64; tries++) {
        attempt = await nextAttempt(event);
        claimed = await this.claim(event, registration, attempt);
      }
      if (!claimed) throw new Error(`delivery ${event.event_id} to ${registration.id} could not be claimed`);
      const outcome = await this.deliver(event, registration, attempt);
      await new Promise<void>((written) => this.records.add({ outcomes: [outcome], written }));
      return { event, attempt };
    } finally {
      this.slots.release(registration);
      // Events the slot's bound held back may start now.
      this.rescan = true;
      this.wake();
    }
  }

  /** Sends one claimed delivery; its outcome (a target refused or not checkable is one too). */
  private async deliver(event: OutboxEvent, registration: Registration, attempt = 1): Promise<Outcome> {
    const outcome = (
      outcome: Outcome['outcome'],
      statusCode: number | null,
      error: string | null,
      durationMs: number | null,
      responseExcerpt: string | null = null,
    ): Outcome => ({
      eventId: Number(event.id),
      webhookId: registration.id,
      attempt,
      outcome,
      statusCode,
      error,
      durationMs,
      responseExcerpt,
    });
    let target: Awaited<ReturnType<typeof checkTarget>>;
    try {
      target = await checkTarget(registration.url, this.settings.allowPrivate, this.settings.resolve);
    } catch (err) {
      if (err instanceof TargetRefused) {
        this.log.warn({ event: event.event_id, webhook: registration.id, reason: `target ${err.message}` }, 'webhook delivery refused');
        return outcome('refused', null, `target ${err.message}`, null);
      }
      this.log.error({ err, event: event.id, webhook: registration.id }, 'webhook target check failed');
      return outcome('failed', null, 'not sent: the target could not be checked', null);
    }
    // The event's id goes with every delivery; signed registrations add Standard Webhooks signatures, by the
    // previous secret too while it still signs (after a rotation).
    const headers: Record<string, string> = { 'webhook-id': event.event_id };
    const secrets = signingSecrets(registration, Date.now());
    if (secrets.length > 0) {
      const timestamp = Math.floor(Date.now() / 1000);
      headers['webhook-timestamp'] = String(timestamp);
      // Signed by the Standard Webhooks reference library; the client verifies with its own small code.
      headers['webhook-signature'] = secrets
        .map((secret) => new Webhook(secret).sign(event.event_id, new Date(timestamp * 1000), event.payload))
        .join(' ');
    }
    const result = await post(target, event.payload, headers, this.settings.timeoutMs);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const state = ok ? 'delivered' : 'failed';
    const error = result.error ?? (ok ? null : `answered ${result.statusCode}`);
    const fields = {
      event: event.event_id,
      type: event.type,
      webhook: registration.id,
      attempt,
      outcome: state,
      status: result.statusCode,
      ms: result.durationMs,
    };
    if (ok) this.log.info(fields, 'webhook delivery');
    else this.log.warn({ ...fields, reason: error }, 'webhook delivery failed');
    return outcome(state, result.statusCode, error, result.durationMs, result.responseExcerpt);
  }
}

/** The secrets that sign a registration's deliveries now: its own, and the previous one until it expires. */
export function signingSecrets(registration: Registration, now: number): string[] {
  if (!registration.secret) return [];
  const previous = registration.previous_secret && Number(registration.previous_secret_until) > now ? [registration.previous_secret] : [];
  return [registration.secret, ...previous];
}
