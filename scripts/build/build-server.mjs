// `npm run build`: compiles the server into an ES module, dist/server/main.js (and the chunks it imports when needed,
// dist/server/chunks/), so that `npm start` runs
// JavaScript with node instead of compiling TypeScript at every start (README: "Fast start"). `prepare`, which
// `npm ci` and `npm install` run, builds it; `npm start` (start-server.mjs) checks it first and rebuilds only when
// a file of the last build changed, so an edit to server/ never starts as old code. Plain JavaScript itself,
// because it runs at every start: checking an unchanged build stats its inputs and loads no compiler.
//
// esbuild is the compiler tsx used at every start, so the code means what it meant under tsx (types are checked
// by `npm run typecheck`, not here). The bundle holds server/, generated/ and the ES-module packages kysely and
// jose: one file instead of about 450 saved about 0.2 s of CPU per start against one output file per module.
// CommonJS packages stay with node's require, as installed: bundling them too made the start slower (a larger
// file to parse), and route-matcher-cache.ts and validator-startup.ts change express-openapi-validator's own
// modules in place. What the server reads at run time (generated/*/openapi.json, docs/dist) it finds from the
// package root (server/platform/package-root.ts).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = 'server/main.ts';
/** Where the project's inputs live (the bundle's own list, from esbuild, decides which of them count). */
const sourceDirs = ['server', 'generated'];
/** ES-module packages compiled into the bundle; every other package is imported from node_modules at run time. */
const bundledPackages = ['kysely', 'jose'];
const manifestName = '.build.json';
/** The migrations, found by name (server/platform/store/migrate.ts: the same pattern). */
const migrationsDir = 'server/platform/store/migrations';
const migrationFile = /^(\d{4}_[a-z0-9_]+)\.ts$/;
const migrationNames = (root) =>
  existsSync(join(root, migrationsDir))
    ? readdirSync(join(root, migrationsDir))
        .flatMap((f) => migrationFile.exec(f)?.[1] ?? [])
        .sort()
    : [];
const chunksDir = 'chunks';

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const version = (root, name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** What the output depends on besides the project's sources: this builder, the compiler options, the versions. */
function buildKey(root) {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(readFileSync(join(root, 'tsconfig.json')));
  for (const name of ['esbuild', ...bundledPackages]) hash.update(`${name}@${version(root, name)}\n`);
  return hash.digest('hex');
}

/** Writes a file under another name, then renames it over the old one (one writer's temporary name per process). */
export function replaceFile(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** What a build remembers of an input: its modification time and size (undefined when it is gone). */
export function fileState(path) {
  try {
    const { mtimeMs, size } = statSync(path);
    return { mtimeMs, size };
  } catch {
    return undefined;
  }
}

/**
 * Why `root`'s build in `outDir` must be redone, or undefined when it is current: no build yet, another builder,
 * tsconfig or package version, or a project file of the last build changed (modification time or size) or went.
 */
export function staleReason(root = packageRoot, outDir = join(root, 'dist')) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, manifestName), 'utf8'));
  } catch {
    return 'no build yet';
  }
  if (!fileState(join(outDir, manifest.output ?? ''))) return 'no build yet';
  if (manifest.key !== buildKey(root)) return 'the builder, tsconfig.json or a compiler or package version changed';
  return changedInput(root, manifest.inputs);
}

/** The first of a build's recorded inputs (path from `root` → fileState) that changed or went, said as a reason. */
export function changedInput(root, inputs) {
  for (const [file, built] of Object.entries(inputs)) {
    const now = fileState(join(root, file));
    if (!now) return `${file} is gone`;
    if (now.mtimeMs !== built.mtimeMs || now.size !== built.size) return `${file} changed`;
  }
  return undefined;
}

/** Builds dist/server/main.js (with its source map) when stale; resolves to why it built, or undefined. */
export async function buildServer(root = packageRoot, outDir = join(root, 'dist'), { force = false } = {}) {
  const reason = force ? 'asked to' : staleReason(root, outDir);
  if (!reason) return undefined;
  const { build } = await import('esbuild');
  const output = 'server/main.js';
  const key = buildKey(root);
  // Each input's state as it was before compiling, so a file saved during the build is seen as changed next time.
  const before = new Map();
  for (const dir of sourceDirs)
    for (const e of readdirSync(join(root, dir), { withFileTypes: true, recursive: true }))
      if (e.isFile()) before.set(relative(root, join(e.parentPath, e.name)).split(sep).join('/'), fileState(join(e.parentPath, e.name)));
  const migrationsState = fileState(join(root, migrationsDir));
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    // The entry and chunks of code it imports only when needed (start.ts imports the HTTP app for a process that
    // serves HTTP): the primary of several processes and the worker processes never load Express or the validator.
    outdir: join(outDir, 'server'),
    entryNames: '[name]',
    chunkNames: `${chunksDir}/[name]-[hash]`,
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    // migrate.ts's list of migrations: the folder's, read now (the bundle holds no folder to read at run time).
    define: { BUNDLED_MIGRATIONS: JSON.stringify(migrationNames(root)) },
    write: false, // written below, each file replaced whole: a server starting meanwhile reads the old or the new
    logLevel: 'silent',
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, ({ path }) =>
            bundledPackages.includes(packageName(path)) ? undefined : { path, external: true },
          );
        },
      },
    ],
  }).catch((err) => {
    const errors = (err.errors ?? []).map(
      (e) => `  ${e.location ? `${e.location.file}:${e.location.line}:${e.location.column} ` : ''}${e.text}`,
    );
    throw new Error(`The server does not compile:\n${errors.join('\n') || err.message}`);
  });
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    if (file.startsWith('node_modules/')) continue; // covered by the package versions in the key
    inputs[file] = before.get(file) ?? fileState(join(root, file));
  }
  // The migrations' folder itself: a migration added or removed changes its modification time, so the next start
  // rebuilds and the bundle's list is the folder's.
  if (migrationsState) inputs[migrationsDir] = migrationsState;
  // Maps before the code that names them, chunks before the entry that imports them, and the manifest last: it
  // vouches for what is already in place.
  const order = (f) => (f.path.endsWith('.map') ? 0 : f.path === join(outDir, output) ? 2 : 1);
  const files = [...result.outputFiles].sort((a, b) => order(a) - order(b));
  files.push({ path: join(outDir, manifestName), contents: JSON.stringify({ key, output, inputs }) });
  for (const file of files) replaceFile(file.path, file.contents);
  // Chunks of earlier builds (their names carry their content's hash) go; only a process that started on the old
  // build and imports a chunk it had not loaded yet would miss one, and each process loads its chunks as it starts.
  const written = new Set(files.map((f) => resolve(f.path)));
  const chunks = join(outDir, 'server', chunksDir);
  for (const name of existsSync(chunks) ? readdirSync(chunks) : [])
    if (!written.has(resolve(chunks, name))) rmSync(join(chunks, name), { force: true });
  return reason;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  try {
    const reason = await buildServer(packageRoot, undefined, { force: process.argv.includes('--force') });
    if (reason) console.error(`Built dist/server/main.js (${reason}) in ${Math.round(performance.now() - started)} ms.`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
