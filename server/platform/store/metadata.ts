// The caller's metadata (string keys to string values, openapi/shared/schemas/Metadata.yaml) as the store keeps
// it: one JSON text column per table (migration 0012), null when none was ever sent. The request validator has
// checked the bounds before anything here runs; this is the one way it is written, read and matched.
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';

export type Metadata = Record<string, string>;

/** The column's value for metadata sent on a create or update: null for none, so `{}` and absent read alike. */
export const storedMetadata = (metadata: Metadata | undefined): string | null =>
  metadata === undefined || Object.keys(metadata).length === 0 ? null : JSON.stringify(metadata);

/** The metadata a row shows: `{}` when none was stored. */
export const metadataOf = (stored: string | null): Metadata => (stored === null ? {} : (JSON.parse(stored) as Metadata));

/** Rows of `table` whose metadata holds `key` with exactly `value`. The key is a bound parameter on both stores
 * (json_each on SQLite rather than a JSON path, which would have to quote it). */
export function metadataMatches(dialect: Dialect, table: string, key: string, value: string): RawBuilder<boolean> {
  const column = sql.ref(`${table}.metadata`);
  return dialect === 'postgres'
    ? sql<boolean>`(${column}::jsonb ->> ${key}) = ${value}`
    : sql<boolean>`exists (select 1 from json_each(${column}) as m where m.key = ${key} and m.value = ${value})`;
}
