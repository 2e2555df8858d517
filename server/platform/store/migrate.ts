// Applies the migrations in ./migrations, in name order, once each. Both dialects run the same files.
//
// A migration is found, not registered: every file of ./migrations named `NNNN_words.ts` is one, and exports
// `migration(store, context)`. Run from the sources (tsx: the tests, the admin CLI), the folder is read as it is. In
// the built server (scripts/build/build-server.mjs) esbuild compiles every file the `import()` below can name into
// the bundle and gives the names it found as BUNDLED_MIGRATIONS; the build counts the folder itself as an input, so
// adding a migration makes `npm start` rebuild.
import { readdir } from 'node:fs/promises';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Environment } from '../environment.js';
import type { Store } from './store.js';

/** What a migration may need beyond the store: the environment the deployment runs in (for rows written before a column). */
export interface MigrationContext {
  environment: Environment;
}

interface MigrationModule {
  migration(store: Store, context: MigrationContext): Migration;
}

/** A migration's file name: four digits, an underscore, lower-case words (build-server.mjs reads the same). */
export const migrationFile = /^(\d{4}_[a-z0-9_]+)\.ts$/;

// esbuild's `define` (the built server) replaces this name with the list; from the sources it is not defined.
declare const BUNDLED_MIGRATIONS: readonly string[] | undefined;

/** The migrations' names, in the order they apply. */
export async function migrationNames(): Promise<string[]> {
  if (typeof BUNDLED_MIGRATIONS !== 'undefined') return [...BUNDLED_MIGRATIONS];
  const files = await readdir(new URL('./migrations/', import.meta.url));
  return files.flatMap((f) => migrationFile.exec(f)?.[1] ?? []).sort();
}

const load = (name: string): Promise<MigrationModule> => import(`./migrations/${name}.ts`);

/** Applies every migration not yet applied, or those up to and including `upTo` (to test a migration on old data). */
export async function migrateToLatest(store: Store, upTo?: string, context: MigrationContext = { environment: 'sandbox' }): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () => {
      const names = await migrationNames();
      const modules = await Promise.all(names.map(load));
      return Object.fromEntries(names.map((name, i) => [name, modules[i]!.migration(store, context)]));
    },
  };
  const migrator = new Migrator({ db: store.db, provider });
  const { error, results } = await (upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(upTo));
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? ''} failed: ${(error as Error).message}`, { cause: error });
  }
}
