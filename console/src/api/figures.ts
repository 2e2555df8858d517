// The overview's figures, read through the public API as any integrator would: today's payouts by state (since the
// reader's local midnight) and the webhook deliveries that failed in the last 24 hours. Each is counted over at most
// `figureLimit` items, so an overview never pages through a whole history; a count that reached it says so.
import { eachPayout, type MerchantClient } from '@payout-service/client';
import type { Webhook, WebhookApi } from './webhooks.js';

/** The most items a figure reads. */
export const figureLimit = 1000;
/** Items a request, the lists' largest page. */
const page = 100;

export interface Counted<K extends string> {
  counts: Map<K, number>;
  total: number;
  /** True when the count stopped at `figureLimit`. */
  capped: boolean;
}

async function countBy<T, K extends string>(items: AsyncIterator<T>, key: (item: T) => K | undefined): Promise<Counted<K>> {
  const counts = new Map<K, number>();
  let total = 0;
  while (total < figureLimit) {
    const next = await items.next();
    if (next.done) return { counts, total, capped: false };
    const k = key(next.value);
    if (k === undefined) continue;
    total += 1;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return { counts, total, capped: true };
}

export function startOfToday(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** Today's payouts by state (an open enumeration: a state this console does not know yet counts too). */
export const todaysPayouts = (merchant: MerchantClient): Promise<Counted<string>> =>
  countBy(eachPayout(merchant, { CreatedFrom: startOfToday().toISOString(), PageSize: page }), (p) => p.Status);

/** Failed deliveries of the last 24 hours, by registration (newest first, so each log is read only that far back). */
export async function failedDeliveries(
  api: WebhookApi,
  now = Date.now(),
): Promise<{ byWebhook: { webhook: Webhook; failures: number }[]; total: number; capped: boolean }> {
  const since = now - 24 * 60 * 60 * 1000;
  const byWebhook: { webhook: Webhook; failures: number }[] = [];
  let read = 0;
  let total = 0;
  for (const webhook of await api.list()) {
    const log = api.deliveries(webhook.id, page);
    let failures = 0;
    while (read < figureLimit) {
      const next = await log.next();
      if (next.done || Date.parse(next.value.attemptedOn) < since) break;
      read += 1;
      if (next.value.outcome === 'failed') failures += 1;
    }
    if (failures > 0) byWebhook.push({ webhook, failures });
    total += failures;
    if (read >= figureLimit) return { byWebhook, total, capped: true };
  }
  return { byWebhook, total, capped: false };
}
