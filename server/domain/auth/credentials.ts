// Merchants, partners and their client credentials: what the admin CLI provisions, what the console lists, creates,
// rolls and revokes, and what the token operations check. A secret is returned once, by the call that creates or
// rolls it. A roll raises the client's generation (a token names the generation it was issued under); with an
// overlap, the secret before it and its generation (the current one less one) keep working until `previous_until`,
// so at most two secrets of a client work at a time. The hash of the secret before the last roll is kept after it
// stops working, so that the token operations can tell a client still sending it that it was replaced.
import type { Selectable, Transaction } from 'kysely';
import { createWithinLimit } from '../../platform/store/count-limit.js';
import { cursorPage, textCursorList } from '../../platform/store/cursor.js';
import type { Store } from '../../platform/store/database.js';
import type { ApiClientTable, Database } from '../../platform/store/schema.js';
import type { Owner } from '../events/owners.js';
import { ClientGenerations } from './client-generations.js';
import { hashSecret, newClientId, newClientSecret, secretMatches, type ClientKind } from './client-secrets.js';
import type { Principal } from './principal.js';

export interface IssuedCredentials {
  clientId: string;
  clientSecret: string;
}

/** A client's credential as its owner may see it: never a secret or its hash. */
export interface ClientRecord {
  clientId: string;
  createdAt: number;
  lastUsedAt: number | null;
  rolledAt: number | null;
  /** Until when the secret before the last roll works; null when none does (any more). */
  previousUntil: number | null;
}

/** At most this many active credentials per merchant or partner. */
export const maxCredentialsPerOwner = 20;
/** What a Client ID and secret authenticate as; or why not: an unknown pair, or the secret before the last roll. */
export type Authentication =
  | { principal: Principal; refused?: undefined }
  | { refused: 'unknown' }
  | { refused: 'replaced'; rolledAt: number };

/** The longest overlap of a roll: 24 hours. */
export const maxOverlapSeconds = 86_400;
/** `last_used_at` is written at most this often per client and instance: a token request costs no write of its own. */
const lastUsedResolutionMs = 60_000;

// Newest first: a position is the creation time and the Client ID (unique), `1730560204218.mch_cl_...`.
const credentialCursors = textCursorList('credential', /^[0-9]{1,16}\.[A-Za-z0-9_-]{1,100}$/);

export class Credentials {
  private readonly now: () => number;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly store: Store,
    /** What the token checks of this process know of each client's generation; a rotation here updates it. */
    readonly generations = new ClientGenerations(store),
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async createMerchant(name: string): Promise<{ merchantId: number } & IssuedCredentials> {
    return this.store.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('merchants').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      const { clientId, clientSecret } = await this.addClient(trx, 'merchant', Number(id));
      return { merchantId: Number(id), clientId, clientSecret };
    });
  }

  async createPartner(name: string): Promise<{ partnerId: number } & IssuedCredentials> {
    return this.store.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('partners').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      const { clientId, clientSecret } = await this.addClient(trx, 'partner', Number(id));
      return { partnerId: Number(id), clientId, clientSecret };
    });
  }

  /** Links a merchant to a partner (idempotent). False when either does not exist. */
  async link(partnerId: number, merchantId: number): Promise<boolean> {
    const [partner, merchant] = await Promise.all([
      this.store.db.selectFrom('partners').select('id').where('id', '=', partnerId).executeTakeFirst(),
      this.store.db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst(),
    ]);
    if (!partner || !merchant) return false;
    await this.store.db
      .insertInto('partner_merchants')
      .values({ partner_id: partnerId, merchant_id: merchantId, linked_at: Date.now() })
      .onConflict((oc) => oc.columns(['partner_id', 'merchant_id']).doNothing())
      .execute();
    return true;
  }

  /** Ends a partner's link to a merchant: from then on each of its operations on that merchant answers 404, as for a
   * merchant never linked. Says why when there was no link to end. */
  async unlink(partnerId: number, merchantId: number): Promise<'unlinked' | 'no-partner' | 'no-merchant' | 'not-linked'> {
    const removed = await this.store.db
      .deleteFrom('partner_merchants')
      .where('partner_id', '=', partnerId)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 1) return 'unlinked';
    const [partner, merchant] = await Promise.all([
      this.store.db.selectFrom('partners').select('id').where('id', '=', partnerId).executeTakeFirst(),
      this.store.db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst(),
    ]);
    return !partner ? 'no-partner' : !merchant ? 'no-merchant' : 'not-linked';
  }

  /** Revokes the client's secret and every token issued under it, and issues a new secret under the same
   * Client ID; undefined when unknown. Other instances refuse the old tokens once their cached generation
   * runs out (client-generations.ts). A roll without an overlap. */
  async rotateSecret(clientId: string): Promise<IssuedCredentials | undefined> {
    const rolled = await this.roll(clientId, 0);
    return rolled && { clientId, clientSecret: rolled.clientSecret };
  }

  /**
   * A new secret under the same Client ID (of `owner` only, when given); undefined when there is no such active
   * client. The current secret becomes the previous one, working `overlapSeconds` more (0: not at all), and an
   * older previous secret ends now. One statement: the previous hash is the row's secret hash as it was.
   */
  async roll(
    clientId: string,
    overlapSeconds: number,
    owner?: Owner,
  ): Promise<{ clientSecret: string; rolledAt: number; previousUntil: number | null } | undefined> {
    if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > maxOverlapSeconds)
      throw new RangeError(`overlapSeconds must be an integer from 0 to ${maxOverlapSeconds}`);
    const clientSecret = newClientSecret();
    const rolledAt = this.now();
    const previousUntil = overlapSeconds === 0 ? null : rolledAt + overlapSeconds * 1000;
    let update = this.store.db
      .updateTable('api_clients')
      .set((eb) => ({
        // Kept after its overlap too (or with none), so that a client still sending it is told it was replaced
        // rather than counted as guessing (authenticate).
        previous_secret_hash: eb.ref('secret_hash'),
        previous_until: previousUntil,
        secret_hash: hashSecret(clientSecret),
        generation: eb('generation', '+', 1),
        rolled_at: rolledAt,
      }))
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null);
    if (owner) update = update.where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);
    const result = await update.executeTakeFirst();
    this.generations.forget(clientId);
    return Number(result.numUpdatedRows) === 1 ? { clientSecret, rolledAt, previousUntil } : undefined;
  }

  /** Ends an active client of `owner`: both its secrets and every token issued with them. False when there is none. */
  async revoke(clientId: string, owner: Owner): Promise<boolean> {
    const result = await this.store.db
      .updateTable('api_clients')
      .set({ revoked_at: this.now(), previous_secret_hash: null, previous_until: null })
      .where('client_id', '=', clientId)
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.generations.forget(clientId);
    return Number(result.numUpdatedRows) === 1;
  }

  /** A new client of `owner` (at most `maxCredentialsPerOwner` active ones: 422 beyond). */
  async createFor(owner: Owner): Promise<IssuedCredentials & { createdAt: number }> {
    const created = await createWithinLimit(
      this.store,
      {
        collection: `api_clients_${owner.kind}`,
        owner: owner.id,
        max: maxCredentialsPerOwner,
        refusal: `A ${owner.kind} holds at most ${maxCredentialsPerOwner} active credentials; revoke one first.`,
        count: async (trx) =>
          (
            await trx
              .selectFrom('api_clients')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('owner_kind', '=', owner.kind)
              .where('owner_id', '=', owner.id)
              .where('revoked_at', 'is', null)
              .executeTakeFirstOrThrow()
          ).n,
      },
      undefined,
      {
        run: async (trx) => ({ status: 201, body: await this.addClient(trx, owner.kind, owner.id) }),
        current: async (first) => first,
      },
    );
    return created.body;
  }

  /** The active clients of `owner`, newest first, a page at a time. */
  async listFor(owner: Owner, query: { PageSize?: number; Cursor?: string }): Promise<{ data: ClientRecord[]; nextCursor: string | null }> {
    const { page, nextCursor } = await cursorPage(
      credentialCursors,
      query,
      (after, limit) => {
        const [at, id] = after === undefined ? [] : [Number(after.slice(0, after.indexOf('.'))), after.slice(after.indexOf('.') + 1)];
        let select = this.store.db
          .selectFrom('api_clients')
          .select(['client_id', 'created_at', 'last_used_at', 'rolled_at', 'previous_until'])
          .where('owner_kind', '=', owner.kind)
          .where('owner_id', '=', owner.id)
          .where('revoked_at', 'is', null);
        if (at !== undefined && id !== undefined)
          select = select.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('client_id', '<', id)])]));
        return select.orderBy('created_at', 'desc').orderBy('client_id', 'desc').limit(limit).execute();
      },
      (r) => `${Number(r.created_at)}.${r.client_id}`,
    );
    const now = this.now();
    return { data: page.map((r) => toRecord(r, now)), nextCursor };
  }

  /** Notes that a token was issued with the client: written when the stored time is a minute old or more, so a
   * token request usually costs no write. Never fails the token request. */
  async markUsed(clientId: string): Promise<void> {
    const now = this.now();
    if ((this.lastUsedWritten.get(clientId) ?? -Infinity) > now - lastUsedResolutionMs) return;
    if (this.lastUsedWritten.size >= 10_000) this.lastUsedWritten.delete(this.lastUsedWritten.keys().next().value!);
    this.lastUsedWritten.set(clientId, now);
    await this.store.db
      .updateTable('api_clients')
      .set({ last_used_at: now })
      .where('client_id', '=', clientId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - lastUsedResolutionMs)]))
      .execute();
  }

  /** The owner of a Client ID and Client Secret of the given kind, or `unknown` (which one was wrong stays untold),
   * or `replaced` for the secret before the last roll once it no longer works. The generation is read together
   * with the secret: a token names the generation of the secret it was issued for. During a roll's overlap the
   * previous secret authenticates too, with the previous generation. */
  async authenticate(kind: ClientKind, clientId: string, clientSecret: string): Promise<Authentication> {
    const row = await this.store.db
      .selectFrom('api_clients')
      .select(['secret_hash', 'owner_id', 'generation', 'previous_secret_hash', 'previous_until', 'rolled_at'])
      .where('client_id', '=', clientId)
      .where('owner_kind', '=', kind)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return { refused: 'unknown' };
    let generation: number;
    if (secretMatches(clientSecret, row.secret_hash)) generation = Number(row.generation);
    else if (row.previous_secret_hash !== null && secretMatches(clientSecret, row.previous_secret_hash)) {
      // The secret this client had before its last roll: still good during the overlap, after it a secret that
      // was replaced (which only someone who once held it can send), never a guess.
      if (row.previous_until === null || Number(row.previous_until) <= this.now())
        return { refused: 'replaced', rolledAt: Number(row.rolled_at) };
      generation = Number(row.generation) - 1;
    } else return { refused: 'unknown' };
    const client = { clientId, generation };
    const ownerId = Number(row.owner_id);
    return { principal: kind === 'merchant' ? { kind, merchantId: ownerId, ...client } : { kind, partnerId: ownerId, ...client } };
  }

  private async addClient(
    trx: Pick<Transaction<Database>, 'insertInto'>,
    kind: ClientKind,
    ownerId: number,
  ): Promise<IssuedCredentials & { createdAt: number }> {
    const clientId = newClientId(kind);
    const clientSecret = newClientSecret();
    const createdAt = this.now();
    await trx
      .insertInto('api_clients')
      .values({
        client_id: clientId,
        secret_hash: hashSecret(clientSecret),
        owner_kind: kind,
        owner_id: ownerId,
        created_at: createdAt,
        revoked_at: null,
        previous_secret_hash: null,
        previous_until: null,
        rolled_at: null,
        last_used_at: null,
      })
      .execute();
    return { clientId, clientSecret, createdAt };
  }
}

function toRecord(
  row: Pick<Selectable<ApiClientTable>, 'client_id' | 'created_at' | 'last_used_at' | 'rolled_at' | 'previous_until'>,
  now: number,
): ClientRecord {
  const previousUntil = row.previous_until === null ? null : Number(row.previous_until);
  return {
    clientId: row.client_id,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    rolledAt: row.rolled_at === null ? null : Number(row.rolled_at),
    previousUntil: previousUntil !== null && previousUntil > now ? previousUntil : null,
  };
}
