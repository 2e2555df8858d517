// The console (issue 24): its users (an email address unique without regard to case, a scrypt hash, the merchant or
// partner they belong to), their sessions (only a hash of the cookie's token is kept), the public API's request log
// (buffered, written in batches, pruned to 1,000 rows per owner and 7 days), and what a credential's roll with an
// overlap needs on `api_clients`: the previous secret's hash and until when it works (its generation is the current
// one less one), when the secret was rolled and when a token was last issued with it.
import type { Kysely, Migration } from 'kysely';
import type { Store } from '../store.js';
import { withSerialId } from './columns.js';

export function migration(store: Store): Migration {
  const pg = store.dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_clients').addColumn('previous_secret_hash', 'text').execute();
      await db.schema.alterTable('api_clients').addColumn('previous_until', big).execute();
      await db.schema.alterTable('api_clients').addColumn('rolled_at', big).execute();
      await db.schema.alterTable('api_clients').addColumn('last_used_at', big).execute();
      await db.schema.createIndex('api_clients_owner').on('api_clients').columns(['owner_kind', 'owner_id', 'created_at']).execute();

      await withSerialId(db.schema.createTable('console_users'), store.dialect)
        .addColumn('public_id', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        // fold_case(email) as written (store/case-folding.ts): what "one user per address" compares.
        .addColumn('email_key', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('owner_kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', big, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('console_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('user_id', big, (c) => c.notNull().references('console_users.id'))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_seen_at', big, (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('ended_at', big)
        .execute();
      await db.schema.createIndex('console_sessions_expiry').on('console_sessions').columns(['expires_at']).execute();

      await withSerialId(db.schema.createTable('request_logs'), store.dialect)
        .addColumn('owner_kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', big, (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('duration_us', big, (c) => c.notNull())
        .addColumn('client_id', 'text')
        .execute();
      await db.schema.createIndex('request_logs_owner').on('request_logs').columns(['owner_kind', 'owner_id', 'at', 'id']).execute();
      await db.schema.createIndex('request_logs_at').on('request_logs').columns(['at']).execute();
    },
  };
}
