// `npm run check:client`: the shape of the client package (client/), as `npm pack` would publish it. It packs
// with `npm pack --dry-run --json` (which builds dist/ through the package's prepack), then checks the manifest
// (exports, types, openapi-fetch the only dependency, no install scripts), the packed files (every export target,
// each group's types and enumeration lists, no sources or tests), that every import of the packed code names a
// packed file or openapi-fetch, and finally compiles a consumer against the packed files alone, with `strict` and
// without Node's types, resolving `@payout-service/client` the way TypeScript does for a project that installed it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import ts from 'typescript';
import { groups } from '../../generated/index.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const clientDir = join(root, 'client');
const problems: string[] = [];
const fail = (message: string) => problems.push(message);

type Manifest = Record<string, any>;
const readJson = (path: string): Manifest => JSON.parse(readFileSync(path, 'utf8'));
const rootManifest = readJson(join(root, 'package.json'));
const manifest = readJson(join(clientDir, 'package.json'));

// The root package is the service: private, and no longer shipping the client.
if (rootManifest.private !== true) fail('the root package.json must stay private: it is the service, not a library');
for (const field of ['exports', 'files', 'main', 'types'])
  if (field in rootManifest) fail(`the root package.json has "${field}": the client ships from client/package.json only`);
if (rootManifest.scripts?.prepack) fail('the root package.json has a prepack script: the client is packed from client/');

// The client's manifest.
const name: unknown = manifest.name;
if (typeof name !== 'string' || !/^@[a-z0-9-]+\/[a-z0-9-]+$/.test(name)) fail(`client/package.json: "name" is not a scoped package name`);
if (manifest.private) fail('client/package.json is private: it is the published package');
if (manifest.type !== 'module') fail('client/package.json: "type" must be "module" (the package is ESM)');
const pinned = rootManifest.dependencies?.['openapi-fetch'];
const dependencies = JSON.stringify(manifest.dependencies ?? {});
if (dependencies !== JSON.stringify({ 'openapi-fetch': pinned }))
  fail(`client/package.json: the only dependency must be openapi-fetch ${pinned} (the root's pin), got ${dependencies}`);
for (const field of ['peerDependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies'])
  if (field in manifest) fail(`client/package.json has "${field}": openapi-fetch is the only dependency`);
for (const script of ['preinstall', 'install', 'postinstall'])
  if (manifest.scripts?.[script]) fail(`client/package.json has an ${script} script: installing the client must run nothing`);
const entry = manifest.exports?.['.'];
const exportTargets: string[] = [];
// "default", not "import" alone: a CommonJS project require()s the ES module (Node 20.19+), which "import" would refuse.
if (!entry || typeof entry.types !== 'string' || typeof entry.default !== 'string') {
  fail('client/package.json: exports["."] must name "types" and "default" (so that import and require() both resolve)');
} else {
  if (Object.keys(entry)[0] !== 'types') fail('client/package.json: exports["."].types must come first, or TypeScript may not see it');
  exportTargets.push(entry.types, entry.default);
}
if (manifest.exports?.['./package.json'] !== './package.json') fail('client/package.json: exports must include "./package.json"');

// What `npm pack` would publish.
const packed = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: clientDir, encoding: 'utf8' });
if (packed.status !== 0) {
  console.error(packed.stdout, packed.stderr);
  throw new Error(`npm pack --dry-run failed in client/ (exit ${packed.status})`);
}
const [pack] = JSON.parse(packed.stdout) as { files: { path: string }[]; size: number; unpackedSize: number }[];
const files = new Set(pack!.files.map((f) => f.path));
const relativeTarget = (target: string) => posix.normalize(target).replace(/^\.\//, '');
for (const target of exportTargets) if (!files.has(relativeTarget(target))) fail(`the export target ${target} is not in the package`);
const groupFiles = groups.flatMap((g) => [
  `dist/generated/${g}/schema.d.ts`,
  `dist/generated/${g}/enums.js`,
  `dist/generated/${g}/enums.d.ts`,
]);
for (const required of ['package.json', 'README.md', ...groupFiles])
  if (!files.has(required)) fail(`the package does not contain ${required}`);
for (const file of files) {
  if (/\.(ts|tsx|mts)$/.test(file) && !file.endsWith('.d.ts')) fail(`the package ships a source file: ${file}`);
  if (/(^|\/)(test|tests|__tests__)\/|\.test\.|tsconfig|\.tgz$/.test(file)) fail(`the package ships ${file}`);
  if (!['package.json', 'README.md'].includes(file) && !file.startsWith('dist/')) fail(`the package ships ${file}, outside dist/`);
}

// Every import of the packed code: a packed file, or openapi-fetch.
for (const file of files) {
  if (!/\.(js|d\.ts)$/.test(file)) continue;
  const text = readFileSync(join(clientDir, file), 'utf8');
  for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!specifier.startsWith('.')) {
      if (specifier !== 'openapi-fetch') fail(`${file} imports ${specifier}: the package depends on openapi-fetch only`);
      continue;
    }
    const target = posix.join(posix.dirname(file), specifier);
    const candidates = file.endsWith('.d.ts') ? [target.replace(/\.js$/, '.d.ts')] : [target];
    if (!candidates.some((c) => files.has(c))) fail(`${file} imports ${specifier}, which is not in the package`);
  }
}

// A consumer compiled against the packed files alone: TypeScript resolves the package as installed under
// node_modules (outside this repository, so nothing else can be found by walking up), with openapi-fetch beside it.
const consumer = resolve('/', '__payout_client_consumer__');
const installed = join(consumer, 'node_modules', ...String(name).split('/'));
const consumerSource = `import { createMerchantClient, unwrap, ApiProblemError, ConnectionError, TimeoutError, constructEvent, merchantEnums, type MerchantComponents, type ProblemKind } from '${name}';
const merchant = createMerchantClient({ baseUrl: 'http://localhost:3000', token: 't', maxRetries: 1, timeout: 5000, onAttempt: (a) => a.status });
const payee = await unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id: 1 } } }));
const gone: undefined = await unwrap(merchant.DELETE('/v1/webhooks', { params: { query: { id: 'w' } } }));
const kind: ProblemKind = 'not-found';
const event = await constructEvent('{}', new Headers(), 'whsec_x');
const eventTypes: readonly MerchantComponents['schemas']['WebhookEventType'][] = merchantEnums.WebhookEventType;
export const used = [payee.name, gone, kind, event.type, eventTypes, ApiProblemError, ConnectionError, TimeoutError];
`;
/** The consumer project's own files, in memory: an ESM package and its program. */
const own = new Map([
  [join(consumer, 'package.json'), '{ "type": "module" }'],
  [join(consumer, 'main.ts'), consumerSource],
]);
/** Where a path of the consumer's tree really is: a packed file, openapi-fetch (and its types) or a TypeScript lib. */
const mapped = (path: string): string | undefined => {
  if (path.startsWith(`${installed}/`)) {
    const inside = path.slice(installed.length + 1);
    return files.has(inside) ? join(clientDir, inside) : undefined;
  }
  for (const dependency of ['openapi-fetch', 'openapi-typescript-helpers']) {
    const at = join(consumer, 'node_modules', dependency);
    if (path === at || path.startsWith(`${at}/`)) return join(root, 'node_modules', dependency, path.slice(at.length));
  }
  return path.startsWith(`${consumer}/`) ? undefined : path;
};
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
};
const host = ts.createCompilerHost(options);
const { fileExists, readFile, getSourceFile } = host;
host.fileExists = (path) => own.has(path) || (mapped(path) !== undefined && fileExists(mapped(path)!));
host.readFile = (path) => own.get(path) ?? (mapped(path) === undefined ? undefined : readFile(mapped(path)!));
host.directoryExists = (path) => {
  if (path.startsWith(`${installed}/`)) return [...files].some((f) => f.startsWith(`${path.slice(installed.length + 1)}/`));
  if ([consumer, join(consumer, 'node_modules'), dirname(installed), installed].includes(path)) return true;
  const real = mapped(path);
  return real !== undefined && existsSync(real) && statSync(real).isDirectory();
};
host.realpath = (path) => path;
host.getSourceFile = (path, languageVersion, onError) => {
  const text = own.get(path) ?? (mapped(path) === undefined ? undefined : getSourceFile(mapped(path)!, languageVersion, onError)?.text);
  return text === undefined ? undefined : ts.createSourceFile(path, text, languageVersion);
};

const consumerMain = join(consumer, 'main.ts');
const program = ts.createProgram([consumerMain], options, host);
const resolved = ts.resolveModuleName(String(name), consumerMain, options, host, undefined, undefined, ts.ModuleKind.ESNext);
const typesAt = resolved.resolvedModule?.resolvedFileName;
if (typesAt !== join(installed, relativeTarget(entry?.types ?? '')))
  fail(`${name} resolves to ${typesAt ?? 'nothing'}, not its "types" export`);
for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
  const where = diagnostic.file ? `${diagnostic.file.fileName.replace(`${consumer}/`, '')}: ` : '';
  fail(`a consumer does not compile: ${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
}

if (problems.length > 0) {
  console.error(`The client package is not in shape (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log(
    `The client package is in shape: ${name}, ${files.size} files, ${Math.round(pack!.size / 1024)} kB packed (${Math.round(pack!.unpackedSize / 1024)} kB unpacked).`,
  );
}
