// The server's build (scripts/build/build-server.mjs, run by `npm ci` and before every `npm start`): it builds when
// there is no build, leaves a current one alone, and rebuilds when a file of the last build changed or went, or
// when tsconfig.json did; a file the bundle does not import changes nothing, and code that does not compile
// fails the build with its file and line. A migration added to the store's folder makes the build stale, and the
// bundle's list of migrations (BUNDLED_MIGRATIONS, which server/platform/store/migrate.ts reads) names it. On a package of its own, so nothing here touches the project's dist/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, packageRoot, staleReason } from '../../scripts/build/build-server.mjs';

const root = mkdtempSync(join(tmpdir(), 'server-build-'));
const dist = join(root, 'dist');
const write = (file: string, text: string) => {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), text);
};
let loads = 0;
/** The built bundle's exported answer, loaded afresh. */
const answer = async () => ((await import(`${pathToFileURL(join(dist, 'server/main.js')).href}?${++loads}`)) as { answer: number }).answer;

write('package.json', JSON.stringify({ name: 'build-check', type: 'module' }));
write('tsconfig.json', readFileSync(join(packageRoot, 'tsconfig.json'), 'utf8'));
symlinkSync(join(packageRoot, 'node_modules'), join(root, 'node_modules'));
write('server/main.ts', "import { part } from './part.js';\nexport const answer: number = part + 1;\n");
write('server/part.ts', 'export const part: number = 41;\n');
write('generated/index.ts', 'export const unused = true;\n');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the server build', () => {
  it('builds when there is none, then leaves it alone', async () => {
    expect(staleReason(root, dist)).toBe('no build yet');
    expect(await buildServer(root, dist)).toBe('no build yet');
    expect(await answer()).toBe(42);
    expect(staleReason(root, dist)).toBeUndefined();
    expect(await buildServer(root, dist)).toBeUndefined();
  });

  it('rebuilds when a file it was built from changes', async () => {
    write('server/part.ts', 'export const part: number = 99;\n');
    expect(staleReason(root, dist)).toBe('server/part.ts changed');
    await buildServer(root, dist);
    expect(await answer()).toBe(100);
  });

  it('sees a change that keeps the size, by its modification time', async () => {
    write('server/part.ts', 'export const part: number = 98;\n');
    utimesSync(join(root, 'server/part.ts'), new Date(), new Date(Date.now() + 5_000));
    expect(staleReason(root, dist)).toBe('server/part.ts changed');
    await buildServer(root, dist);
    expect(await answer()).toBe(99);
  });

  it('rebuilds when a migration is added, and the bundle lists it', async () => {
    write('server/platform/store/migrations/0001_first.ts', 'export const migration = () => ({ up: async () => {} });\n');
    write('server/platform/store/migrations/columns.ts', 'export const notAMigration = true;\n');
    write(
      'server/main.ts',
      "import { part } from './part.js';\nexport const answer: number = part + 1;\ndeclare const BUNDLED_MIGRATIONS: string[];\nexport const migrations = BUNDLED_MIGRATIONS;\n",
    );
    await buildServer(root, dist);
    const migrations = async () =>
      ((await import(`${pathToFileURL(join(dist, 'server/main.js')).href}?${++loads}`)) as { migrations: string[] }).migrations;
    expect(await migrations()).toEqual(['0001_first']);
    expect(staleReason(root, dist)).toBeUndefined();
    write('server/platform/store/migrations/0002_second.ts', 'export const migration = () => ({ up: async () => {} });\n');
    // A new file changes its folder's modification time; a coarse clock may not show it, so the test moves it on.
    utimesSync(join(root, 'server/platform/store/migrations'), new Date(), new Date(Date.now() + 5_000));
    expect(staleReason(root, dist)).toBe('server/platform/store/migrations changed');
    await buildServer(root, dist);
    expect(await migrations()).toEqual(['0001_first', '0002_second']);
  });

  it('ignores a file the bundle does not import', async () => {
    write('generated/index.ts', 'export const unused = false;\n');
    write('server/notes.ts', 'export const note = 1;\n');
    expect(staleReason(root, dist)).toBeUndefined();
  });

  it('rebuilds when tsconfig.json changes, or a file it was built from goes', async () => {
    write('tsconfig.json', `${readFileSync(join(root, 'tsconfig.json'), 'utf8')}\n`);
    expect(staleReason(root, dist)).toMatch(/tsconfig\.json/);
    await buildServer(root, dist);
    rmSync(join(root, 'server/part.ts'));
    expect(staleReason(root, dist)).toBe('server/part.ts is gone');
    write('server/main.ts', 'export const answer: number = 7;\n');
    await buildServer(root, dist);
    expect(await answer()).toBe(7);
  });

  it('fails on code that does not compile, naming file and line, and stays stale', async () => {
    write('server/main.ts', 'export const answer: number = 7;\nexport const broken = (;\n');
    await expect(buildServer(root, dist)).rejects.toThrow(/server\/main\.ts:2:/);
    expect(staleReason(root, dist)).toBe('server/main.ts changed');
    expect(await answer()).toBe(7);
  });
});
