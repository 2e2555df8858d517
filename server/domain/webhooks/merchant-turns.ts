// The order in which a dispatcher round offers its events to the delivery slots: merchants take turns, one
// event each per turn, each merchant's oldest first, and merchants with fewer deliveries already in flight
// go first in every turn. A merchant with a large backlog then takes no more of the free slots than anyone
// else who has work, and a merchant with nothing in flight gets the next slot that frees.
// A partner's events (events/owners.ts) take turns as one more owner beside the merchants.
import { ownerKey } from '../events/owners.js';
export function inMerchantTurns<T extends { merchant_id: number; partner_id?: number | null }>(
  events: readonly T[],
  inFlightOf: (merchantId: number) => number,
): T[] {
  const queues = new Map<number, T[]>();
  for (const event of events) {
    const merchant = ownerKey({ merchant_id: event.merchant_id, partner_id: event.partner_id ?? null });
    const queue = queues.get(merchant);
    if (queue) queue.push(event);
    else queues.set(merchant, [event]);
  }
  // A stable sort: merchants with as many in flight keep the order of their oldest event.
  const order = [...queues.entries()].sort(([a], [b]) => inFlightOf(a) - inFlightOf(b)).map(([, queue]) => queue);
  const turns: T[] = [];
  for (let turn = 0; turns.length < events.length; turn++) {
    for (const queue of order) if (turn < queue.length) turns.push(queue[turn]!);
  }
  return turns;
}
