// What a webhook receiver saw, as (payout, state) pairs in arrival order, and the checks both suites make
// on them: no pair twice, and each payout's states in the order of its expected sequence.
import type { Delivery } from '../support/webhook-receiver.js';

export interface DeliveredEvent {
  payout: string;
  state: string;
}

export function deliveredEvents(deliveries: readonly Delivery[]): DeliveredEvent[] {
  return deliveries.map((d) => {
    const event = JSON.parse(d.body) as { payout_request_id: string; state: string };
    return { payout: event.payout_request_id, state: event.state };
  });
}

/** Every (payout, state) pair that arrived more than once. */
export function duplicates(events: readonly DeliveredEvent[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { payout, state } of events) {
    const key = `${payout}:${state}`;
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  return [...twice];
}

/** The states each payout's events arrived with, in arrival order. */
export function statesByPayout(events: readonly DeliveredEvent[]): Map<string, string[]> {
  const byPayout = new Map<string, string[]>();
  for (const { payout, state } of events) byPayout.set(payout, [...(byPayout.get(payout) ?? []), state]);
  return byPayout;
}

/** True when `states` is `expected` with some entries left out (none added, none repeated, none reordered). */
export function isSubsequence(states: readonly string[], expected: readonly string[]): boolean {
  let at = 0;
  for (const state of states) {
    at = expected.indexOf(state, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}
