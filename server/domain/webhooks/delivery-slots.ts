// How many webhook deliveries may be in flight at once: per target (a receiver's scheme, host and port, however
// many registrations or merchants point at it), per merchant (or partner: events/owners.ts `ownerKey`) and overall. An event takes a slot for each of
// its deliveries, all or none, and gives each back when that POST ends. A receiver that never answers thus
// holds at most `perTarget` deliveries for the whole timeout; the rest of its events wait in the outbox,
// left out of the dispatcher's selection (`blocked`) so that they do not crowd out anyone else's.
import type { Selectable } from 'kysely';
import type { WebhookTable } from '../../platform/store/schema.js';
import { ownerKey } from '../events/owners.js';

export type Registration = Selectable<WebhookTable>;

export interface DeliveryLimits {
  perTarget: number;
  perMerchant: number;
  overall: number;
}

/** The service's limits: the docs state `perTarget` to receivers, so it is read from here. */
export const deliveryLimits: DeliveryLimits = { perTarget: 64, perMerchant: 128, overall: 1024 };

const targetByUrl = new Map<string, string>();

/** The receiver a URL reaches; a URL that does not parse is its own target (the guard refuses it anyway). */
export function targetOf(url: string): string {
  let target = targetByUrl.get(url);
  if (target === undefined) {
    try {
      const { protocol, host } = new URL(url);
      target = `${protocol}//${host}`;
    } catch {
      target = url;
    }
    // Parsed once per URL: every take and release asks. Registrations are few; the bound is a safety net.
    if (targetByUrl.size >= 10_000) targetByUrl.clear();
    targetByUrl.set(url, target);
  }
  return target;
}

interface Target {
  inFlight: number;
  /** An event was turned away for want of a slot here: full for that event, so for the selection too. */
  refused: boolean;
  /** The registrations seen pointing here while it had deliveries in flight. */
  registrations: Map<string, Registration>;
}

export class DeliverySlots {
  private readonly targets = new Map<string, Target>();
  private readonly merchants = new Map<number, number>();
  /** Merchants an event was turned away for; they count as at their bound until a slot of theirs frees. */
  private readonly refusedMerchants = new Set<number>();
  private total = 0;
  /** Grows whenever something becomes blocked that the selection did not leave out before. */
  blockedVersion = 0;

  constructor(readonly limits: DeliveryLimits) {}

  get free(): number {
    return Math.max(0, this.limits.overall - this.total);
  }

  inFlightOf(merchantId: number): number {
    return this.merchants.get(merchantId) ?? 0;
  }

  /**
   * Takes a slot for each registration (one event's deliveries, all of one merchant) if every bound allows;
   * otherwise takes none and answers false. An idle target or merchant always admits one event, so one
   * with more registrations than a bound still gets its turn.
   */
  take(merchantId: number, registrations: Registration[]): boolean {
    const n = registrations.length;
    if (this.total > 0 && this.total + n > this.limits.overall) return false;
    const merchant = this.inFlightOf(merchantId);
    if (merchant > 0 && merchant + n > this.limits.perMerchant) {
      if (!this.refusedMerchants.has(merchantId)) this.blockedVersion += 1;
      this.refusedMerchants.add(merchantId);
      return false;
    }
    const wanted = new Map<string, number>();
    for (const r of registrations) wanted.set(targetOf(r.url), (wanted.get(targetOf(r.url)) ?? 0) + 1);
    for (const [key, count] of wanted) {
      const target = this.targets.get(key);
      if (target && target.inFlight + count > this.limits.perTarget) {
        if (!target.refused) this.blockedVersion += 1;
        target.refused = true;
        return false;
      }
    }
    for (const r of registrations) {
      const key = targetOf(r.url);
      const target = this.targets.get(key) ?? { inFlight: 0, refused: false, registrations: new Map() };
      target.inFlight += 1;
      target.registrations.set(r.id, r);
      this.targets.set(key, target);
    }
    if (n > 0) this.merchants.set(merchantId, merchant + n);
    this.total += n;
    return true;
  }

  /** Gives back the slot of one delivery that ended (or was never sent). */
  release(registration: Registration): void {
    const key = targetOf(registration.url);
    const target = this.targets.get(key);
    if (target) {
      target.refused = false;
      if (--target.inFlight <= 0) this.targets.delete(key);
    }
    const merchantId = ownerKey(registration);
    this.refusedMerchants.delete(merchantId);
    const merchant = this.inFlightOf(merchantId) - 1;
    if (merchant > 0) this.merchants.set(merchantId, merchant);
    else this.merchants.delete(merchantId);
    this.total -= 1;
  }

  /** Remembers the registrations that point at a full target, so the selection leaves their events out. */
  note(registrations: Registration[]): void {
    for (const r of registrations) {
      const target = this.targets.get(targetOf(r.url));
      if (!target || !this.isFull(target) || target.registrations.has(r.id)) continue;
      target.registrations.set(r.id, r);
      this.blockedVersion += 1;
    }
  }

  /** What cannot take another delivery now: merchants at their bound, registrations of full targets. */
  blocked(): { merchants: number[]; registrations: Registration[] } {
    const atBound = [...this.merchants].filter(([, n]) => n >= this.limits.perMerchant).map(([id]) => id);
    const merchants = [...new Set([...atBound, ...this.refusedMerchants])];
    const full = [...this.targets.values()].filter((t) => this.isFull(t));
    const registrations = full.flatMap((t) => [...t.registrations.values()]);
    return { merchants, registrations };
  }

  private isFull(target: Target): boolean {
    return target.refused || target.inFlight >= this.limits.perTarget;
  }
}
