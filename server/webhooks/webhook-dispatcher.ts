// Delivers the outbox (payout_events) to the matching registrations: each event once to each
// registration of its merchant and environment that selected it. A delivery is claimed (a row keyed by
// event and registration) before the POST, so no event is ever sent twice, even by two instances or
// after a crash; the seed's rule is at most once, with no resend. Events of one payout go out in order.
// A delivery whose sender died between claim and record is marked `unknown` a minute later, never resent.
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import { signWebhook } from '../../client/webhook-signature.js';
import type { Store } from '../store/database.js';
import type { PayoutEventTable, WebhookTable } from '../store/schema.js';
import { PollingWorker } from '../workers/polling-worker.js';
import { TargetRefused, checkTarget, type Resolver } from './address-guard.js';
import { DeliveryClaims } from './delivery-claims.js';
import { post } from './webhook-delivery.js';

export interface WebhookDispatcherSettings {
  allowPrivate: boolean;
  timeoutMs: number;
  pollMs: number;
  batchSize: number;
  /** Pause before a round asked for during the previous one, to take a burst of new events together. */
  settleMs?: number;
  /** Payouts whose events are sent at the same time. */
  concurrency: number;
  resolve?: Resolver;
  /**
   * A delivery still `sending` this long after its claim lost its sender (a crash between the POST and the
   * round's record) and is marked `unknown`. Far longer than any round, so a live sender records first; if
   * one ever records later, its outcome replaces `unknown`. Default 60 s.
   */
  unsettledAfterMs?: number;
}

const messageId = (eventId: number) => `msg_${String(eventId).padStart(26, '0')}`;

export class WebhookDispatcher {
  private readonly worker: PollingWorker;
  private readonly claims: DeliveryClaims;
  private lastSweep = 0;
  private readonly unsettledAfterMs: number;

  constructor(
    private readonly store: Store,
    private readonly settings: WebhookDispatcherSettings,
    private readonly log: Logger,
  ) {
    this.worker = new PollingWorker('webhook-dispatcher', () => this.round(), settings, log);
    this.claims = new DeliveryClaims(store);
    this.unsettledAfterMs = settings.unsettledAfterMs ?? 60_000;
  }

  start = (): void => this.worker.start();
  stop = (): Promise<void> => this.worker.stop();
  /** Send pending events now (after new ones were written), instead of at the next poll. */
  wake = (): void => this.worker.wake();

  /**
   * Sends one batch of pending events; returns how many events it took. Each delivery is claimed (committed,
   * with the claims of the other workers at that moment) just before its POST; what follows (the outcome, the event marked dispatched) is written for the
   * whole batch in one transaction at the end of the round. A crash in between loses only that bookkeeping:
   * the claims still stop a resend, and the next round marks the events.
   */
  async round(): Promise<number> {
    if (Date.now() - this.lastSweep >= this.unsettledAfterMs) {
      this.lastSweep = Date.now();
      await this.settleAbandoned();
    }
    const events = await this.store.db
      .selectFrom('payout_events')
      .selectAll()
      .where('dispatched_at', 'is', null)
      .orderBy('id')
      .limit(this.settings.batchSize)
      .execute();
    if (events.length === 0) return 0;
    const merchants = [...new Set(events.map((e) => e.merchant_id))];
    const registrations = await this.store.db.selectFrom('webhooks').selectAll().where('merchant_id', 'in', merchants).where('deleted_at', 'is', null).execute();
    const byPayout = new Map<string, Selectable<PayoutEventTable>[]>();
    for (const event of events) byPayout.set(event.payout_reference, [...(byPayout.get(event.payout_reference) ?? []), event]);
    const queues = [...byPayout.values()];
    const outcomes: Outcome[] = [];
    const dispatched: Selectable<PayoutEventTable>[] = [];
    const workers = Array.from({ length: Math.min(this.settings.concurrency, queues.length) }, async () => {
      for (let queue = queues.shift(); queue; queue = queues.shift()) {
        for (const event of queue) {
          await this.dispatch(event, registrations, outcomes);
          dispatched.push(event);
        }
      }
    });
    // Every worker ends (a failed one leaves its payout's later events for the next round) before the record.
    const failed = (await Promise.allSettled(workers)).find((w) => w.status === 'rejected');
    await this.record(dispatched, outcomes);
    if (failed) throw failed.reason;
    return events.length;
  }

  private async dispatch(event: Selectable<PayoutEventTable>, registrations: Selectable<WebhookTable>[], outcomes: Outcome[]): Promise<void> {
    const name = `payout.${event.state}`;
    const targets = registrations.filter(
      (r) => r.merchant_id === event.merchant_id && r.environment === event.environment && (JSON.parse(r.events) as string[]).includes(name),
    );
    await Promise.all(targets.map(async (registration) => {
      const outcome = await this.deliver(event, registration);
      if (outcome) outcomes.push(outcome);
    }));
  }

  /** The outcomes of the round's deliveries and its events marked dispatched, in one transaction. */
  private async record(events: Selectable<PayoutEventTable>[], outcomes: Outcome[]): Promise<void> {
    if (events.length === 0 && outcomes.length === 0) return;
    const now = Date.now();
    // Deliveries with the same registration and the same outcome (most of a round: delivered, 200, in a few
    // ms) are recorded by one update.
    const alike = new Map<string, Outcome[]>();
    for (const o of outcomes) {
      const key = JSON.stringify([o.webhookId, o.outcome, o.statusCode, o.error, o.durationMs]);
      const group = alike.get(key);
      if (group) group.push(o);
      else alike.set(key, [o]);
    }
    await this.store.db.transaction().execute(async (trx) => {
      for (const group of alike.values()) {
        const { webhookId, outcome, statusCode, error, durationMs } = group[0]!;
        for (let i = 0; i < group.length; i += 500) {
          await trx
            .updateTable('webhook_deliveries')
            .set({ outcome, status_code: statusCode, error, duration_ms: durationMs })
            .where('webhook_id', '=', webhookId)
            .where('event_id', 'in', group.slice(i, i + 500).map((o) => o.eventId))
            .execute();
        }
      }
      for (let i = 0; i < events.length; i += 500) {
        const ids = events.slice(i, i + 500).map((e) => e.id);
        await trx.updateTable('payout_events').set({ dispatched_at: now }).where('id', 'in', ids).where('dispatched_at', 'is', null).execute();
      }
    });
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

  /** Claims and sends one delivery; its outcome, or nothing when another round or instance has it. */
  private async deliver(event: Selectable<PayoutEventTable>, registration: Selectable<WebhookTable>): Promise<Outcome | undefined> {
    const id = messageId(Number(event.id));
    const claimed = await this.claims.claim({
      event_id: event.id,
      webhook_id: registration.id,
      message_id: id,
      url: registration.url,
      outcome: 'sending',
      status_code: null,
      error: null,
      duration_ms: null,
      attempted_at: Date.now(),
    });
    if (!claimed) return undefined; // already sent (or being sent) by another round or instance
    const outcome = (outcome: Outcome['outcome'], statusCode: number | null, error: string | null, durationMs: number | null): Outcome => ({
      eventId: event.id,
      webhookId: registration.id,
      outcome,
      statusCode,
      error,
      durationMs,
    });
    let target;
    try {
      target = await checkTarget(registration.url, this.settings.allowPrivate, this.settings.resolve);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      return outcome('refused', null, `target ${err.message}`, null);
    }
    const headers: Record<string, string> = {};
    if (registration.secret) {
      const timestamp = Math.floor(Date.now() / 1000);
      headers['webhook-id'] = id;
      headers['webhook-timestamp'] = String(timestamp);
      headers['webhook-signature'] = await signWebhook(registration.secret, id, timestamp, event.payload);
    }
    const result = await post(target, event.payload, headers, this.settings.timeoutMs);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    this.log.info({ event: event.id, webhook: registration.id, outcome: ok ? 'delivered' : 'failed', status: result.statusCode, ms: result.durationMs }, 'webhook delivery');
    return outcome(ok ? 'delivered' : 'failed', result.statusCode, result.error ?? (ok ? null : `answered ${result.statusCode}`), result.durationMs);
  }
}

interface Outcome {
  eventId: number;
  webhookId: string;
  outcome: 'delivered' | 'failed' | 'refused';
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
}
