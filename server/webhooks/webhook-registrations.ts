// Webhook registrations of a merchant: at most 20, each with its events, environment and, when signed,
// a secret shown once. Targets pass the address guard at registration (and again at each delivery).
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { components } from '../../generated/merchant/schema.js';
import { Problem, bodyField } from '../problems.js';
import { newWebhookId } from '../ids/identifiers.js';
import { createWithinLimit, type CountLimit } from '../store/count-limit.js';
import type { Store } from '../store/database.js';
import type { WebhookTable } from '../store/schema.js';
import { isoTimestamp } from '../store/timestamps.js';
import { TargetRefused, checkTarget, type Resolver } from './address-guard.js';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
type EventType = Schemas['WebhookEventType'];

export const maxWebhooksPerMerchant = 20;
export const allEvents: EventType[] = [
  'payout.created',
  'payout.processing',
  'payout.sent',
  'payout.completed',
  'payout.failed',
  'payout.cancelled',
];

export function toWebhook(row: Selectable<WebhookTable>): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    environment: row.environment,
    signed: row.secret !== null,
    createdOn: isoTimestamp(row.created_at),
  };
}

export class WebhookRegistrations {
  constructor(
    private readonly store: Store,
    private readonly settings: { allowPrivate: boolean; resolve?: Resolver },
  ) {}

  async create(merchantId: number, body: Schemas['WebhookCreateRequest']): Promise<Schemas['WebhookCreated']> {
    try {
      await checkTarget(body.url, this.settings.allowPrivate, this.settings.resolve);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      throw new Problem('business-rule', `The webhook URL ${err.message}.`, { errors: [bodyField('url', err.message)] });
    }
    const secret = body.signed ? `whsec_${randomBytes(24).toString('base64')}` : null;
    const events = allEvents.filter((e) => (body.events ?? allEvents).includes(e));
    const limit: CountLimit = {
      collection: 'webhooks',
      owner: merchantId,
      max: maxWebhooksPerMerchant,
      refusal: `A merchant has at most ${maxWebhooksPerMerchant} webhook registrations.`,
      count: async (trx) =>
        (
          await trx
            .selectFrom('webhooks')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('merchant_id', '=', merchantId)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).count,
    };
    return createWithinLimit(this.store, limit, async (trx) => {
      const row = await trx
        .insertInto('webhooks')
        .values({
          id: newWebhookId(),
          merchant_id: merchantId,
          url: body.url,
          events: JSON.stringify(events),
          environment: body.environment ?? 'sandbox',
          secret,
          created_at: Date.now(),
          deleted_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...toWebhook(row), secret };
    });
  }

  async list(merchantId: number): Promise<Webhook[]> {
    const rows = await this.store.db
      .selectFrom('webhooks')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toWebhook);
  }

  async remove(merchantId: number, id: string): Promise<void> {
    const result = await this.store.db
      .updateTable('webhooks')
      .set({ deleted_at: Date.now() })
      .where('merchant_id', '=', merchantId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new Problem('not-found', `No webhook registration ${id} exists for this merchant.`);
  }
}
