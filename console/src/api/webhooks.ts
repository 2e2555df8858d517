// A merchant's webhooks (group A, /v1/webhooks) and a partner's (group C, /finance/v1/webhooks) are the same
// registrations with the same operations at two paths: one shape here, so one set of pages serves both.
import {
  eachPartnerWebhookDelivery,
  eachWebhookDelivery,
  type MerchantClient,
  type MerchantComponents,
  merchantEnums,
  type PartnerClient,
  type PartnerComponents,
  partnerEnums,
  unwrap,
} from '@payout-service/client';
import type { Clients } from './clients.js';

type M = MerchantComponents['schemas'];
type P = PartnerComponents['schemas'];

export type Webhook = M['Webhook'];
export type WebhookCreated = M['WebhookCreated'];
export type Delivery = M['WebhookDelivery'];
export type Environment = M['WebhookEnvironment'];

export interface Registration {
  url: string;
  events: string[];
  environment: Environment;
  signed: boolean;
  retries: boolean;
}

export interface Changes {
  /** At least one: the contract takes no empty list on a change. */
  events?: string[];
  enabled?: boolean;
}

export interface WebhookApi {
  /** The events a registration may select. */
  events: readonly string[];
  list(): Promise<Webhook[]>;
  get(id: string): Promise<Webhook>;
  create(registration: Registration): Promise<WebhookCreated>;
  /** Changes what a registration receives, or stops and starts its deliveries (at least one of them). */
  update(id: string, changes: Changes): Promise<Webhook>;
  remove(id: string): Promise<void>;
  test(id: string): Promise<Delivery>;
  rotateSecret(id: string): Promise<{ secret: string; previousSecretExpiresOn: string | null }>;
  deliveries(id: string, pageSize: number): AsyncIterator<Delivery>;
  redeliver(id: string, eventId: string): Promise<Delivery>;
}

/** The events chosen, or none sent: a registration made without `events` receives every event. */
const chosen = <T>(events: T[]): T[] | undefined => (events.length > 0 ? events : undefined);

function merchantWebhooks(client: MerchantClient): WebhookApi {
  return {
    events: merchantEnums.WebhookEventType,
    list: () => unwrap(client.GET('/v1/webhooks')),
    get: (id) => unwrap(client.GET('/v1/webhooks/{id}', { params: { path: { id } } })),
    create: (r) => unwrap(client.POST('/v1/webhooks', { body: { ...r, events: chosen(r.events as M['WebhookEventType'][]) } })),
    update: (id, c) =>
      unwrap(
        client.PATCH('/v1/webhooks/{id}', {
          params: { path: { id } },
          body: { ...c, events: c.events as M['WebhookEventType'][] | undefined },
        }),
      ),
    remove: (id) => unwrap(client.DELETE('/v1/webhooks', { params: { query: { id } } })),
    test: (id) => unwrap(client.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
    rotateSecret: (id) => unwrap(client.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
    deliveries: (id, pageSize) => eachWebhookDelivery(client, id, { PageSize: pageSize }),
    redeliver: (id, deliveryId) =>
      unwrap(client.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } })),
  };
}

function partnerWebhooks(client: PartnerClient): WebhookApi {
  return {
    events: partnerEnums.PartnerWebhookEventType,
    list: () => unwrap(client.GET('/finance/v1/webhooks')),
    get: (id) => unwrap(client.GET('/finance/v1/webhooks/{id}', { params: { path: { id } } })),
    create: (r) => unwrap(client.POST('/finance/v1/webhooks', { body: { ...r, events: r.events as P['PartnerWebhookEventType'][] } })),
    update: (id, c) =>
      unwrap(
        client.PATCH('/finance/v1/webhooks/{id}', {
          params: { path: { id } },
          body: { ...c, events: c.events as P['PartnerWebhookEventType'][] | undefined },
        }),
      ),
    remove: (id) => unwrap(client.DELETE('/finance/v1/webhooks', { params: { query: { id } } })),
    test: (id) => unwrap(client.POST('/finance/v1/webhooks/{id}/test', { params: { path: { id } } })),
    rotateSecret: (id) => unwrap(client.POST('/finance/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
    deliveries: (id, pageSize) => eachPartnerWebhookDelivery(client, id, { PageSize: pageSize }),
    redeliver: (id, deliveryId) =>
      unwrap(client.POST('/finance/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } })),
  };
}

export const webhooksOf = (clients: Clients): WebhookApi =>
  clients.kind === 'merchant' ? merchantWebhooks(clients.merchant) : partnerWebhooks(clients.partner);
