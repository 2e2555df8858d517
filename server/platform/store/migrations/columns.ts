// Column shapes every migration shares, so both dialects get the same table from one line.
import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from '../store.js';

/** An autoincrementing integer primary key: an identity column on PostgreSQL, AUTOINCREMENT on SQLite. */
export function withSerialId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
  name = 'id',
): CreateTableBuilder<T, string> {
  return dialect === 'postgres'
    ? table.addColumn(name, 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());
}
