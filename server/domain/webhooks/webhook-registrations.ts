// Webhook registrations of a merchant or a partner (events/owners.ts): at most 20 each, each with its events, environment and, when signed,
// a secret shown once. Targets pass the address guard at registration (and again at each delivery).
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { WebhookEventType } from '../../../generated/merchant/enums.js';
import type { components } from '../../../generated/merchant/schema.js';
import { PartnerWebhookEventType } from '../../../generated/partner/enums.js';
import { Problem, bodyField } from '../../platform/problems.js';
import { newWebhookId } from '../../platform/ids/identifiers.js';
import { createWithinLimit, type CountLimit } from '../../platform/store/count-limit.js';
import type { Environment } from '../../platform/environment.js';
import type { Store } from '../../platform/store/database.js';
import { claimOf, type StoredResponse } from '../../platform/store/idempotency.js';
import type { WebhookTable } from '../../platform/store/schema.js';
import { ownedBy, registrationOwner, type Owner } from '../events/owners.js';
import { isoTimestamp } from '../../platform/store/timestamps.js';
import { TargetRefused, checkTarget, type Resolver } from './address-guard.js';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
type EventType = Schemas['WebhookEventType'];

/** A merchant's registrations at most; a partner's too. */
export const maxWebhooksPerMerchant = 20;
/** Every event type a merchant's registration can select, in the contract's order (`WebhookEventType`). */
export const allEvents: readonly EventType[] = WebhookEventType;

/** What a partner's registration can select: the events of the payments it requested (partners/payment-events.ts),
 * in the contract's order (`PartnerWebhookEventType`). */
export const partnerEvents: readonly EventType[] = PartnerWebhookEventType;

/** The event types an owner's registrations can select, in the order they are stored. */
export const selectableEvents = (owner: Owner): readonly EventType[] => (owner.kind === 'merchant' ? allEvents : partnerEvents);

export function toWebhook(row: Selectable<WebhookTable>): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    environment: row.environment,
    signed: row.secret !== null,
    enabled: Number(row.enabled) === 1,
    retries: Number(row.retries) === 1,
    createdOn: isoTimestamp(row.created_at),
  };
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export class WebhookRegistrations {
  constructor(
    private readonly store: Store,
    private readonly settings: { allowPrivate: boolean; resolve?: Resolver; environment: Environment },
  ) {}

  /**
   * Under the Idempotency-Key, when sent: a replay shows the registration as it is now (404 once removed), and the
   * secret again to the caller that lost it, but only while it is still the registration's secret: once rotated,
   * a replay shows null (the new secret was shown by the rotation, once).
   */
  async create(
    owner: Owner,
    body: Schemas['WebhookCreateRequest'],
    idempotencyKey?: string,
  ): Promise<StoredResponse<Schemas['WebhookCreated']>> {
    try {
      await checkTarget(body.url, this.settings.allowPrivate, this.settings.resolve);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      throw new Problem('business-rule', `The webhook URL ${err.message}.`, { errors: [bodyField('url', err.message)] });
    }
    const secret = body.signed ? newSecret() : null;
    const selectable = selectableEvents(owner);
    const events = selectable.filter((e) => (body.events ?? selectable).includes(e));
    const limit: CountLimit = {
      collection: owner.kind === 'merchant' ? 'webhooks' : 'partner-webhooks',
      owner: owner.id,
      max: maxWebhooksPerMerchant,
      refusal: `A ${owner.kind} has at most ${maxWebhooksPerMerchant} webhook registrations.`,
      count: async (trx) =>
        (
          await trx
            .selectFrom('webhooks')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where(ownedBy(owner, 'webhooks'))
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).count,
    };
    const claim = claimOf(
      `${owner.kind}:${owner.id}`,
      owner.kind === 'merchant' ? 'createWebhook' : 'createPartnerWebhook',
      idempotencyKey,
      body,
    );
    return createWithinLimit(this.store, limit, claim, {
      current: async (first: Schemas['WebhookCreated']) => {
        const row = await this.find(owner, first.id);
        return { ...toWebhook(row), secret: first.secret !== null && row.secret === first.secret ? first.secret : null };
      },
      run: async (trx) => {
        const row = await trx
          .insertInto('webhooks')
          .values({
            id: newWebhookId(),
            ...registrationOwner(owner),
            url: body.url,
            events: JSON.stringify(events),
            // Unless told otherwise, a registration hears about the money of the service it is made on.
            environment: body.environment ?? this.settings.environment,
            secret,
            retries: body.retries ? 1 : 0,
            created_at: Date.now(),
            deleted_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { status: 201, body: { ...toWebhook(row), secret } };
      },
    });
  }

  async list(owner: Owner): Promise<Webhook[]> {
    const rows = await this.store.db
      .selectFrom('webhooks')
      .selectAll()
      .where(ownedBy(owner, 'webhooks'))
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toWebhook);
  }

  async remove(owner: Owner, id: string): Promise<void> {
    const result = await this.store.db
      .updateTable('webhooks')
      .set({ deleted_at: Date.now() })
      .where(ownedBy(owner, 'webhooks'))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound(owner, id);
  }

  /** One of the owner's registrations, with what its deliveries need (the secrets); not-found otherwise. */
  async find(owner: Owner, id: string): Promise<Selectable<WebhookTable>> {
    const row = await this.store.db
      .selectFrom('webhooks')
      .selectAll()
      .where(ownedBy(owner, 'webhooks'))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(owner, id);
    return row;
  }

  async get(owner: Owner, id: string): Promise<Webhook> {
    return toWebhook(await this.find(owner, id));
  }

  /** Changes url, events or enabled; a new URL passes the address guard first. Nothing is written before. */
  async update(owner: Owner, id: string, body: Schemas['WebhookUpdateRequest']): Promise<Webhook> {
    if (body.url !== undefined) await this.checkUrl(body.url);
    const row = await this.store.db
      .updateTable('webhooks')
      .set({
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined ? { events: JSON.stringify(selectableEvents(owner).filter((e) => body.events!.includes(e))) } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
        ...(body.retries !== undefined ? { retries: body.retries ? 1 : 0 } : {}),
      })
      .where(ownedBy(owner, 'webhooks'))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound(owner, id);
    return toWebhook(row);
  }

  /**
   * A new secret, shown once; the current one keeps signing beside it for 24 hours (an older previous one ends
   * now). One compare-and-set on the current secret, so two rotations racing cannot both keep theirs.
   */
  async rotateSecret(owner: Owner, id: string, now = Date.now()): Promise<Schemas['WebhookSecretRotated']> {
    for (;;) {
      const current = await this.find(owner, id);
      const secret = newSecret();
      const until = current.secret ? now + previousSecretLifetimeMs : null;
      const row = await this.store.db
        .updateTable('webhooks')
        .set({ secret, previous_secret: current.secret, previous_secret_until: until })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where((eb) => (current.secret === null ? eb('secret', 'is', null) : eb('secret', '=', current.secret)))
        .returningAll()
        .executeTakeFirst();
      if (row) return { ...toWebhook(row), secret, previousSecretExpiresOn: until === null ? null : isoTimestamp(until) };
    }
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await checkTarget(url, this.settings.allowPrivate, this.settings.resolve);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      throw new Problem('business-rule', `The webhook URL ${err.message}.`, { errors: [bodyField('url', err.message)] });
    }
  }
}

const notFound = (owner: Owner, id: string) => new Problem('not-found', `No webhook registration ${id} exists for this ${owner.kind}.`);

/** A rotated-out secret signs beside the new one this long, so receivers can switch without missing a delivery. */
export const previousSecretLifetimeMs = 24 * 60 * 60 * 1000;
