// The web console's build (console/README.md): Vite bundles console/ (Preact, the client package from client/) into
// dist/console/, which the service serves at /console/. Built by `npm run build` and `npm ci` (build.mjs), and
// checked before every `npm start` (start-server.mjs), the way the server bundle is: a manifest of the files the
// last build was made of (every file under console/ and each module outside it that the bundle holds, by
// modification time and size) says when it is stale, so a check of a current build stats files and loads no Vite.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedInput, fileState, packageRoot } from './build-server.mjs';

const sourceDir = 'console';
const manifestName = '.build.json';
/** The packages whose versions change the output. */
const packages = ['vite', 'preact'];

/** Raised when Vite is not installed (an install without the dev dependencies): the console cannot be built there. */
export class ConsoleBuildUnavailable extends Error {}

const version = (root, name) => {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
};

function buildKey(root) {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const name of packages) hash.update(`${name}@${version(root, name)}\n`);
  return hash.digest('hex');
}

const repoPath = (root, path) => relative(root, path).split(sep).join('/');

function sourceFiles(root) {
  return readdirSync(join(root, sourceDir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.parentPath.split(sep).includes('node_modules'))
    .map((e) => repoPath(root, join(e.parentPath, e.name)));
}

/** Why the console's build in `outDir` must be redone, or undefined when it is current. */
export function consoleStaleReason(root = packageRoot, outDir = join(root, 'dist', 'console')) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, manifestName), 'utf8'));
  } catch {
    return 'no build yet';
  }
  if (!existsSync(join(outDir, 'index.html'))) return 'no build yet';
  if (manifest.key !== buildKey(root)) return 'the builder or the version of Vite or Preact changed';
  const added = sourceFiles(root).find((file) => !(file in manifest.inputs));
  if (added) return `${added} is new`;
  return changedInput(root, manifest.inputs);
}

/**
 * Puts the built folder in place of the old one in two renames. Two processes building at once (two `npm start`s of
 * a stale checkout) build the same files: the one that finds its place taken leaves the other's build there.
 */
function swapIn(built, outDir) {
  const old = `${outDir}.${process.pid}.old`;
  try {
    renameSync(outDir, old);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  try {
    renameSync(built, outDir);
  } catch (err) {
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    rmSync(built, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/** Builds the console into `outDir` when stale (or when forced); resolves to why it built, or undefined. */
export async function buildConsole(root = packageRoot, outDir = join(root, 'dist', 'console'), { force = false } = {}) {
  const reason = force ? 'asked to' : consoleStaleReason(root, outDir);
  if (!reason) return undefined;
  let vite;
  try {
    vite = await import('vite');
  } catch {
    throw new ConsoleBuildUnavailable('The console is not built: Vite is not installed (install the dev dependencies: npm ci).');
  }
  const key = buildKey(root);
  // Each input's state before the build reads it, so a file saved during the build is seen as changed next time.
  const inputs = {};
  for (const file of sourceFiles(root)) inputs[file] = fileState(join(root, file));
  const bundled = new Set();
  // Built beside the old build, then swapped in: a running server serves the old files or the new, never half.
  const temporary = `${outDir}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  const built = vite.build({
    configFile: join(root, sourceDir, 'vite.config.mjs'),
    logLevel: 'warn',
    build: { outDir: temporary, emptyOutDir: true },
    plugins: [
      {
        name: 'record-inputs',
        // Every module of the graph, also one whose code was shaken out (a re-exporting index).
        buildEnd() {
          for (const id of this.getModuleIds()) bundled.add(id);
        },
      },
    ],
  });
  await built.catch((err) => {
    rmSync(temporary, { recursive: true, force: true });
    throw err;
  });
  for (const id of bundled) {
    if (!id.startsWith(root + sep) || id.includes(`${sep}node_modules${sep}`)) continue; // packages: covered by the key
    const file = repoPath(root, id.split('?')[0]);
    inputs[file] ??= fileState(join(root, file));
  }
  writeFileSync(join(temporary, manifestName), JSON.stringify({ key, inputs }));
  swapIn(temporary, outDir);
  return reason;
}
