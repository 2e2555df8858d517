// The package's root directory (where package.json is), found by walking up from this module, so that files
// read at run time (the bundled documents, the default store, the built docs) are found the same whether the
// server runs from its sources (server/, through tsx or vitest) or from the build (build/server/).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rootAbove(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}.`);
  }
}

export const packageRoot = rootAbove(dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, from its root: `fromPackageRoot('generated', 'merchant', 'openapi.json')`. */
export const fromPackageRoot = (...segments: string[]): string => join(packageRoot, ...segments);
