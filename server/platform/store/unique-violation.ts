// The one test for "a unique index refused this write", on both drivers. Only the drivers' own errors count
// (pg's DatabaseError 23505, better-sqlite3's SqliteError), so nothing else can pass for one.
import SQLite from 'better-sqlite3';
import type { Problem } from '../problems.js';
import { loadedPg } from './pg-driver.js';

export interface UniqueIndex {
  /** The index (or constraint) name: PostgreSQL reports it. */
  name: string;
  /** Its columns as SQLite reports them: `table.column, table.column`. */
  columns: string;
}

/** Whether err is a unique violation; of `index` only, when given. */
export function isUniqueViolation(err: unknown, index?: UniqueIndex): boolean {
  const pg = loadedPg();
  if (pg && err instanceof pg.DatabaseError) return err.code === '23505' && (!index || err.constraint === index.name);
  if (err instanceof SQLite.SqliteError) {
    const unique = err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
    return unique && (!index || err.message === `UNIQUE constraint failed: ${index.columns}`);
  }
  return false;
}

/** Runs fn, turning a violation of `index` (two requests racing for one unique value) into `problem()`. */
export async function conflictOn<T>(index: UniqueIndex, problem: () => Problem, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err, index)) throw problem();
    throw err;
  }
}
