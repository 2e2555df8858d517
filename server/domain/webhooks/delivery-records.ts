// What finished webhook deliveries leave in the store: each delivery's outcome, and its event marked
// dispatched once all of the event's deliveries ended. Written in batches, one transaction each: what
// finishes within `settleMs` of the first finish (or while a write runs) goes into one write, so a busy
// receiver's answers cost a few commits a second, not one each. A write that fails is tried again (outcomes
// and marks are idempotent); until it is written, the event is still the next of its payout and its claims
// still stop a resend.
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Store } from '../../platform/store/database.js';
import { inList } from '../../platform/store/in-list.js';

export interface Outcome {
  eventId: number;
  webhookId: string;
  attempt: number;
  outcome: 'delivered' | 'failed' | 'refused';
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  /** The start of the receiver's answer body, or null. */
  responseExcerpt: string | null;
  /** When the next attempt is due (a failed attempt of a registration with retries). */
  retryAt?: number;
}

export interface Finished {
  outcomes: Outcome[];
  /** The event to mark dispatched, when all of its deliveries are settled. */
  eventId?: number;
  /** Called once the record is committed (or abandoned at stop). */
  written(): void;
}

export class DeliveryRecords {
  private pending: Finished[] = [];
  private writing?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly timing: { settleMs: number; retryMs: number },
  ) {}

  add(finished: Finished): void {
    this.pending.push(finished);
    this.schedule();
  }

  private schedule(): void {
    if (this.writing) return;
    this.writing = new Promise((r) => setTimeout(r, this.stopping ? 0 : this.timing.settleMs))
      .then(() => this.writeAll())
      .finally(() => {
        this.writing = undefined;
        if (this.pending.length > 0) this.schedule(); // added after the last write looked
      });
  }

  /** Writes what is pending (one more try for a failing write) and resolves when done. */
  async stop(): Promise<void> {
    this.stopping = true;
    while (this.writing) await this.writing;
  }

  private async writeAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.write(batch);
      } catch (err) {
        if (!this.stopping) {
          this.log.error({ err }, 'webhook delivery records not written; trying again');
          this.pending.unshift(...batch);
          await new Promise((r) => setTimeout(r, this.timing.retryMs));
          continue;
        }
        // Stopping: the claims stay `sending` and the sweep marks them unknown; nothing is sent again.
        this.log.error({ err, deliveries: batch.length }, 'webhook delivery records not written at stop');
      }
      for (const f of batch) f.written();
    }
  }

  private async write(batch: Finished[]): Promise<void> {
    const outcomes = batch.flatMap((f) => f.outcomes);
    const events = batch.flatMap((f) => (f.eventId === undefined ? [] : [f.eventId]));
    if (outcomes.length === 0 && events.length === 0) return;
    const now = Date.now();
    // Deliveries with the same registration and the same outcome (most of a busy batch: delivered, 200, the
    // receiver's usual answer) are recorded by one update, each with its own duration.
    const alike = new Map<string, Outcome[]>();
    for (const o of outcomes) {
      const key = JSON.stringify([o.webhookId, o.attempt, o.outcome, o.statusCode, o.error, o.responseExcerpt]);
      const group = alike.get(key);
      if (group) group.push(o);
      else alike.set(key, [o]);
    }
    await this.store.db.transaction().execute(async (trx) => {
      for (const group of alike.values()) {
        const { webhookId, attempt, outcome, statusCode, error, responseExcerpt } = group[0]!;
        for (let i = 0; i < group.length; i += 200) {
          const part = group.slice(i, i + 200);
          const durations = new Map<number | null, number[]>();
          for (const o of part) durations.set(o.durationMs, [...(durations.get(o.durationMs) ?? []), o.eventId]);
          // Few distinct durations (whole milliseconds): one CASE branch each.
          const branches = [...durations].map(([ms, ids]) => sql`when event_id in (${sql.join(inList(ids))}) then cast(${ms} as integer)`);
          await trx
            .updateTable('webhook_deliveries')
            .set({
              outcome,
              status_code: statusCode,
              error,
              response_excerpt: responseExcerpt,
              duration_ms: sql<number | null>`case ${sql.join(branches, sql` `)} end`,
            })
            .where('webhook_id', '=', webhookId)
            .where('attempt', '=', attempt)
            .where('event_id', 'in', inList(part.map((o) => o.eventId)))
            .execute();
        }
      }
      // In the same commit as the outcome: a failure recorded is never without its retry, even after a crash.
      for (const o of outcomes)
        if (o.retryAt !== undefined)
          await trx
            .updateTable('webhook_deliveries')
            .set({ retry_at: o.retryAt })
            .where('event_id', '=', o.eventId)
            .where('webhook_id', '=', o.webhookId)
            .where('attempt', '=', o.attempt)
            .execute();
      for (let i = 0; i < events.length; i += 500) {
        await trx
          .updateTable('events')
          .set({ dispatched_at: now })
          .where('id', 'in', inList(events.slice(i, i + 500)))
          .where('dispatched_at', 'is', null)
          .execute();
      }
    });
  }
}
