// Case-insensitive comparison of text, the same on both stores and for every script: `fold_case(text)` in SQL.
// SQLite's own `lower()` folds ASCII letters only ("ÉLODIE" never found "élodie"); PostgreSQL's follows the
// database's collation. Both stores get one function of that name: on SQLite a JavaScript function registered on
// each connection (`registerCaseFolding`), on PostgreSQL a SQL function (migration 0010) over ICU's lowercase
// when the server has ICU, else the database's. Both are Unicode's full lowercase mapping (JavaScript's
// `toLowerCase` is ICU's), with final sigma ς folded to σ, so "ΣΩΚΡΑΤΗΣ", "Σωκράτης" and "σωκρατης" are one name.
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { sql, type Expression, type RawBuilder } from 'kysely';

/** The fold `fold_case` computes: Unicode lowercase, final sigma as sigma. */
export const foldCase = (text: string): string => text.toLowerCase().replace(/ς/g, 'σ');

/** Makes `fold_case` on a SQLite connection (null stays null). */
export function registerCaseFolding(sqlite: SQLiteDatabase): void {
  sqlite.function('fold_case', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldCase(text) : text));
}

/** `fold_case(value)`: a column (`sql.ref('name')`) or a value bound as a parameter. */
export const folded = (value: Expression<string | null> | string): RawBuilder<string> => sql<string>`fold_case(${value})`;

/** Whether `column` holds `text` anywhere, ignoring case: `%`, `_` and `\` in `text` are themselves. */
export function foldedContains(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`${folded(sql.ref(column))} like ${folded(pattern)} escape '\\'`;
}
