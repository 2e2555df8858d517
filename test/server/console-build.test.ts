// The console's build (scripts/build/build-console.mjs, run by `npm ci`, `npm run build` and before every
// `npm start`): it builds when there is no build, leaves a current one alone, and rebuilds when a file under
// console/ changes or appears, or when a module it bundles from outside console/ changes; a file it does not bundle
// changes nothing. On a package of its own, so nothing here touches the project's dist/.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildConsole, consoleStaleReason } from '../../scripts/build/build-console.mjs';
import { packageRoot } from '../../scripts/build/build-server.mjs';

const root = mkdtempSync(join(tmpdir(), 'console-build-'));
const out = join(root, 'dist', 'console');
const write = (file: string, text: string) => {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), text);
};
/** The text of the built script, whatever its hashed name. */
const builtScript = () => {
  const name = readdirSync(join(out, 'assets')).find((f) => f.endsWith('.js'))!;
  return readFileSync(join(out, 'assets', name), 'utf8');
};

write('package.json', JSON.stringify({ name: 'console-build-check', type: 'module' }));
symlinkSync(join(packageRoot, 'node_modules'), join(root, 'node_modules'));
write(
  'console/vite.config.mjs',
  "import { fileURLToPath } from 'node:url';\nexport default { root: fileURLToPath(new URL('.', import.meta.url)), base: '/console/', publicDir: false };\n",
);
write('console/index.html', '<!doctype html><title>t</title><script type="module" src="/src/main.ts"></script>\n');
write('console/src/main.ts', "import { word } from '../../client/word.ts';\ndocument.title = word + '-one';\n");
write('client/word.ts', "export const word = 'alpha';\n");
write('client/unused.ts', "export const unused = 'never bundled';\n");

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the console build', () => {
  it('builds when there is none, then leaves it alone', async () => {
    expect(consoleStaleReason(root, out)).toBe('no build yet');
    expect(await buildConsole(root, out)).toBe('no build yet');
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(builtScript()).toContain('alpha-one');
    expect(consoleStaleReason(root, out)).toBeUndefined();
    expect(await buildConsole(root, out)).toBeUndefined();
  });

  it('rebuilds when a file of console/ changes, also keeping its size', async () => {
    write('console/src/main.ts', "import { word } from '../../client/word.ts';\ndocument.title = word + '-two';\n");
    utimesSync(join(root, 'console/src/main.ts'), new Date(), new Date(Date.now() + 5_000));
    expect(consoleStaleReason(root, out)).toBe('console/src/main.ts changed');
    await buildConsole(root, out);
    expect(builtScript()).toContain('alpha-two');
  });

  it('rebuilds when a module it bundles from outside console/ changes, and not for one it does not bundle', async () => {
    write('client/unused.ts', "export const unused = 'still never bundled';\n");
    expect(consoleStaleReason(root, out)).toBeUndefined();
    write('client/word.ts', "export const word = 'omega';\n");
    expect(consoleStaleReason(root, out)).toBe('client/word.ts changed');
    await buildConsole(root, out);
    expect(builtScript()).toContain('omega-two');
  });

  it('rebuilds when a file appears under console/', async () => {
    write('console/public/robots.txt', 'User-agent: *\nDisallow: /\n');
    expect(consoleStaleReason(root, out)).toBe('console/public/robots.txt is new');
  });

  it('fails with the compiler’s message when the console does not compile, keeping the last build', async () => {
    write('console/src/main.ts', 'document.title = ;\n');
    await expect(buildConsole(root, out)).rejects.toThrow(/main\.ts/);
    expect(builtScript()).toContain('omega-two');
    expect(readdirSync(join(root, 'dist'))).toEqual(['console']);
  });
});
