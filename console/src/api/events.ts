// Events: the merchant's (group A, /v1/events) or the partner's (group C, /finance/v1/events), in one shape for the
// events pages; and the event a sandbox simulation caused, found among them.
import {
  eachEvent,
  eachPartnerEvent,
  type MerchantComponents,
  merchantEnums,
  type PartnerComponents,
  partnerEnums,
  unwrap,
} from '@payout-service/client';
import type { Clients } from './clients.js';

export type AnyEvent = MerchantComponents['schemas']['Event'] | PartnerComponents['schemas']['PartnerEvent'];

export interface EventFilters {
  types: string[];
  payout?: string;
  createdFrom?: string;
  createdTo?: string;
}

export interface EventsApi {
  types: readonly string[];
  /** Whether events can be narrowed to one payout (merchants only). */
  byPayout: boolean;
  each(filters: EventFilters, pageSize: number): AsyncIterator<AnyEvent>;
  get(id: string): Promise<AnyEvent>;
}

export function eventsOf(clients: Clients): EventsApi {
  if (clients.kind === 'merchant') {
    const client = clients.merchant;
    return {
      types: merchantEnums.EventType,
      byPayout: true,
      each: (f, pageSize) =>
        eachEvent(client, {
          Type: f.types.length > 0 ? (f.types as MerchantComponents['schemas']['EventType'][]) : undefined,
          PayoutUniqueReference: f.payout || undefined,
          CreatedFrom: f.createdFrom || undefined,
          CreatedTo: f.createdTo || undefined,
          PageSize: pageSize,
        }),
      get: (eventId) => unwrap(client.GET('/v1/events/{eventId}', { params: { path: { eventId } } })),
    };
  }
  const client = clients.partner;
  return {
    types: partnerEnums.PartnerEventType,
    byPayout: false,
    each: (f, pageSize) =>
      eachPartnerEvent(client, {
        Type: f.types.length > 0 ? (f.types as PartnerComponents['schemas']['PartnerEventType'][]) : undefined,
        CreatedFrom: f.createdFrom || undefined,
        CreatedTo: f.createdTo || undefined,
        PageSize: pageSize,
      }),
    get: (eventId) => unwrap(client.GET('/finance/v1/events/{eventId}', { params: { path: { eventId } } })),
  };
}

/** An event's time: its `timestamp` (every event but a test carries one). */
export const eventTime = (event: AnyEvent): string | undefined =>
  'timestamp' in event && typeof event.timestamp === 'string' ? event.timestamp : undefined;

/** The events among the newest `within` of the filters' that `matches` accepts (for an object the list has no filter for). */
export async function eventsAbout(
  api: EventsApi,
  filters: EventFilters,
  matches: (event: AnyEvent) => boolean,
  within = 500,
): Promise<AnyEvent[]> {
  const found: AnyEvent[] = [];
  const events = api.each(filters, Math.min(within, 100));
  for (let next = await events.next(), n = 0; !next.done && n < within; next = await events.next(), n++) {
    if (matches(next.value)) found.push(next.value);
  }
  return found;
}

/**
 * The newest event of `types` that `matches` accepts, looked for among the newest 25, again while it has not yet
 * been written (a released payout's next event comes when the rail takes it): at most `tries` looks.
 */
export async function findEvent(
  api: EventsApi,
  filters: EventFilters,
  matches: (event: AnyEvent) => boolean,
  { tries = 20, intervalMs = 500 } = {},
): Promise<AnyEvent | undefined> {
  for (let attempt = 1; attempt <= tries; attempt++) {
    const [event] = await eventsAbout(api, filters, matches, 25);
    if (event) return event;
    if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return undefined;
}
