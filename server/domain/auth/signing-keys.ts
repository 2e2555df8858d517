// The token signing key: Ed25519, created once and kept in the store so that tokens outlive restarts and
// every instance on a shared PostgreSQL signs and verifies with the same key. The oldest key signs.
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { sql } from 'kysely';
import type { Store } from '../../platform/store/database.js';

type Key = Awaited<ReturnType<typeof importJWK>>;

export interface SigningKey {
  kid: string;
  privateKey: Key;
  publicKey: Key;
}

// Any fixed number: the advisory lock instances take in turn while they look for the key or create it.
const signingKeyLock = 0x5e7_4e75;

export async function loadSigningKey(store: Store): Promise<SigningKey> {
  // Instances starting together take turns (PostgreSQL: a transaction-scoped advisory lock), so exactly one
  // creates the key and every other one reads it. Settling afterwards on the oldest row was not enough: an
  // instance whose insert landed late (slow link, clock behind) kept its own key and refused the others' tokens.
  const row = await store.db.transaction().execute(async (trx) => {
    if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${signingKeyLock})`.execute(trx);
    const existing = () => trx.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').limit(1).executeTakeFirst();
    const found = await existing();
    if (found) return found;
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    await trx
      .insertInto('signing_keys')
      .values({
        kid: randomBytes(8).toString('hex'),
        private_jwk: JSON.stringify(await exportJWK(privateKey)),
        public_jwk: JSON.stringify(await exportJWK(publicKey)),
        created_at: Date.now(),
      })
      .execute();
    return existing();
  });
  if (!row) throw new Error('No signing key could be stored.');
  return {
    kid: row.kid,
    privateKey: await importJWK(JSON.parse(row.private_jwk) as JWK, 'EdDSA'),
    publicKey: await importJWK(JSON.parse(row.public_jwk) as JWK, 'EdDSA'),
  };
}
