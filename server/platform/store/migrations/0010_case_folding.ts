// `fold_case(text)` on PostgreSQL, the case-insensitive comparison of names and emails (store/case-folding.ts;
// SQLite's is registered on each connection). ICU's lowercase (`und-x-icu`) when the server was built with ICU,
// as JavaScript's is, so both stores fold alike whatever the database's locale; else the database's own.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Store } from '../store.js';

export function migration(store: Store): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (store.dialect !== 'postgres') return;
      const icu = await sql<{ found: number }>`select 1 as found from pg_collation where collname = 'und-x-icu'`.execute(db);
      const lower = icu.rows.length > 0 ? sql.raw(`lower(t collate "und-x-icu")`) : sql.raw('lower(t)');
      // A quoted body rather than `return ...`, which PostgreSQL takes only from version 14.
      await sql`create function fold_case(t text) returns text language sql immutable strict parallel safe
        as $$ select translate(${lower}, 'ς', 'σ') $$`.execute(db);
    },
  };
}
