// pg, loaded when a PostgreSQL store is first opened: a start on the embedded store never loads it (about 50 ms
// of a fresh start, README: "Fast start").
import { createRequire } from 'node:module';
import type pgModule from 'pg';

type Pg = typeof pgModule;
const require = createRequire(import.meta.url);
let configured: Pg | undefined;
let pgPath: string | undefined;

/** pg, configured for this service's columns. */
export async function loadPg(): Promise<Pg> {
  if (!configured) {
    const pg = (await import('pg')).default;
    // int8 (bigint) and numeric come back from pg as strings; every such column here holds an exact integer
    // below 2^53 (epoch milliseconds, minor units), so numbers are safe and keep both dialects alike.
    pg.types.setTypeParser(20, (v) => Number(v));
    configured = pg;
  }
  return configured;
}

/** pg if anything in this process has loaded it, else undefined: then no error can be one of pg's. */
export function loadedPg(): Pg | undefined {
  if (configured) return configured;
  pgPath ??= require.resolve('pg');
  return require.cache[pgPath]?.exports as Pg | undefined;
}
