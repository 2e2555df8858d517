// Claims of webhook deliveries, committed in groups. A delivery is claimed (its row written) before its POST
// so that it is never sent twice; the dispatcher's workers claim at the same moment, so the claims asked for
// within one turn of the event loop go to the store as one multi-row insert: one commit for all of them
// instead of one each. Each caller still waits for its own claim to commit before it sends anything.
import type { Insertable } from 'kysely';
import type { Store } from '../../platform/store/database.js';
import type { WebhookDeliveryTable } from '../../platform/store/schema.js';

type Claim = Insertable<WebhookDeliveryTable>;

interface Waiting {
  claim: Claim;
  resolve(won: boolean): void;
  reject(err: unknown): void;
}

const keyOf = (eventId: number, webhookId: string, attempt = 1) => `${eventId}:${webhookId}:${attempt}`;

export class DeliveryClaims {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(private readonly store: Store) {}

  /** True when this claim won; false when the delivery was claimed before (by another round or instance). */
  claim(claim: Claim): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ claim, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    try {
      const won = new Set<string>();
      // Every instance inserts in key order: two instances claiming overlapping rows then wait on each
      // other in one direction only, where unordered multi-row inserts deadlock on PostgreSQL.
      const rowsInOrder = batch
        .map((w) => w.claim)
        .sort(
          (a, b) =>
            Number(a.event_id) - Number(b.event_id) ||
            (a.webhook_id < b.webhook_id ? -1 : a.webhook_id > b.webhook_id ? 1 : 0) ||
            Number(a.attempt ?? 1) - Number(b.attempt ?? 1),
        );
      // Every row names its attempt, so a batch's rows have one shape.
      const rows = rowsInOrder.map((r) => ({ ...r, attempt: r.attempt ?? 1 }));
      // 500 rows of 10 values stay well under either store's limit of parameters per statement.
      for (let i = 0; i < rows.length; i += 500) {
        const inserted = await this.store.db
          .insertInto('webhook_deliveries')
          .values(rows.slice(i, i + 500))
          .onConflict((oc) => oc.columns(['event_id', 'webhook_id', 'attempt']).doNothing())
          .returning(['event_id', 'webhook_id', 'attempt'])
          .execute();
        for (const row of inserted) won.add(keyOf(Number(row.event_id), row.webhook_id, Number(row.attempt)));
      }
      // Two claims of one key in a batch (two redeliveries numbering the same attempt): only the first wins.
      for (const w of batch) w.resolve(won.delete(keyOf(Number(w.claim.event_id), w.claim.webhook_id, Number(w.claim.attempt ?? 1))));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
