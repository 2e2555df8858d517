// The current credential generation of each API client (and, after a roll with an overlap, until when the previous
// one still works), which every token check compares with the token's own: read from the store at most once per client every few seconds on each instance, and forgotten at once
// when this process rotates the client's secret. The cache time is therefore how long a rotated secret's
// tokens can keep working on an instance that did not rotate it (another instance, or after the admin CLI).
import type { Store } from '../../platform/store/database.js';
import type { ClientKind } from './client-secrets.js';

/** How long an instance trusts a generation it read: the bound on a rotated secret's tokens (README, DECISIONS). */
export const generationCacheSeconds = 5;

/** An API client that may hold tokens: who owns it and its current generation. */
export interface ActiveClient {
  ownerKind: ClientKind;
  ownerId: number;
  generation: number;
  /** After a roll with an overlap, until when the previous generation (generation - 1) still works; else null. */
  previousUntil: number | null;
}

export class ClientGenerations {
  private readonly cached = new Map<string, { client: Promise<ActiveClient | undefined>; until: number }>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly store: Store,
    options: { now?: () => number; maxEntries?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The client of a Client ID while it is active; undefined when it is unknown or revoked. */
  current(clientId: string): Promise<ActiveClient | undefined> {
    const now = this.now();
    const hit = this.cached.get(clientId);
    if (hit && hit.until > now) return hit.client;
    this.cached.delete(clientId);
    // Kept from the moment the read starts, so requests arriving meanwhile share it, and a read that began
    // before a rotation committed is trusted no longer than the bound after it.
    const client = this.read(clientId);
    client.catch(() => {
      if (this.cached.get(clientId)?.client === client) this.cached.delete(clientId); // a failed read is not kept
    });
    if (this.cached.size >= this.maxEntries) this.cached.delete(this.cached.keys().next().value!);
    this.cached.set(clientId, { client, until: now + generationCacheSeconds * 1000 });
    return client;
  }

  /** Drops what this instance knows of a client, after it changed the client's generation. */
  forget(clientId: string): void {
    this.cached.delete(clientId);
  }

  private async read(clientId: string): Promise<ActiveClient | undefined> {
    const row = await this.store.db
      .selectFrom('api_clients')
      .select(['owner_kind', 'owner_id', 'generation', 'previous_until'])
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return (
      row && {
        ownerKind: row.owner_kind,
        ownerId: Number(row.owner_id),
        generation: Number(row.generation),
        previousUntil: row.previous_until === null ? null : Number(row.previous_until),
      }
    );
  }
}
