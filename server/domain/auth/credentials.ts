// Merchants, partners and their client credentials: what the admin CLI provisions and what the token
// operations check. A secret is returned once, by the call that creates or rotates it.
import type { Store } from '../../platform/store/database.js';
import { ClientGenerations } from './client-generations.js';
import { hashSecret, newClientId, newClientSecret, secretMatches, type ClientKind } from './client-secrets.js';
import type { Principal } from './principal.js';

export interface IssuedCredentials {
  clientId: string;
  clientSecret: string;
}

export class Credentials {
  constructor(
    private readonly store: Store,
    /** What the token checks of this process know of each client's generation; a rotation here updates it. */
    readonly generations = new ClientGenerations(store),
  ) {}

  async createMerchant(name: string): Promise<{ merchantId: number } & IssuedCredentials> {
    return this.store.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('merchants').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      const credentials = await this.addClient(trx, 'merchant', Number(id));
      return { merchantId: Number(id), ...credentials };
    });
  }

  async createPartner(name: string): Promise<{ partnerId: number } & IssuedCredentials> {
    return this.store.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('partners').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      const credentials = await this.addClient(trx, 'partner', Number(id));
      return { partnerId: Number(id), ...credentials };
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
   * runs out (client-generations.ts). */
  async rotateSecret(clientId: string): Promise<IssuedCredentials | undefined> {
    const clientSecret = newClientSecret();
    const result = await this.store.db
      .updateTable('api_clients')
      .set((eb) => ({ secret_hash: hashSecret(clientSecret), generation: eb('generation', '+', 1) }))
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.generations.forget(clientId);
    return Number(result.numUpdatedRows) === 1 ? { clientId, clientSecret } : undefined;
  }

  /** The owner of a Client ID and Client Secret of the given kind, or undefined (which one was wrong stays untold),
   * with the generation read together with the secret: a token names the generation of the secret it was issued for. */
  async authenticate(kind: ClientKind, clientId: string, clientSecret: string): Promise<Principal | undefined> {
    const row = await this.store.db
      .selectFrom('api_clients')
      .select(['secret_hash', 'owner_id', 'generation'])
      .where('client_id', '=', clientId)
      .where('owner_kind', '=', kind)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row || !secretMatches(clientSecret, row.secret_hash)) return undefined;
    const client = { clientId, generation: Number(row.generation) };
    const ownerId = Number(row.owner_id);
    return kind === 'merchant' ? { kind, merchantId: ownerId, ...client } : { kind, partnerId: ownerId, ...client };
  }

  private async addClient(trx: Pick<Store['db'], 'insertInto'>, kind: ClientKind, ownerId: number): Promise<IssuedCredentials> {
    const clientId = newClientId(kind);
    const clientSecret = newClientSecret();
    await trx
      .insertInto('api_clients')
      .values({
        client_id: clientId,
        secret_hash: hashSecret(clientSecret),
        owner_kind: kind,
        owner_id: ownerId,
        created_at: Date.now(),
        revoked_at: null,
      })
      .execute();
    return { clientId, clientSecret };
  }
}
