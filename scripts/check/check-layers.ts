// `npm run check` step: the layering of the code, read off the import graph. Data flows one way:
// openapi/ → generated/ → server/, client/, docs (scripts/); tests and benchmarks sit on top. Each rule below
// names what a folder may not import; any import that breaks one fails the check with the file and the line.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(new URL('../..', import.meta.url).pathname);

interface Rule {
  /** Files the rule applies to, by their path from the repository root. */
  from: RegExp;
  /** A repository path (or a package name) these files may not import, given the importing file. */
  forbidden: (target: string, file: string) => boolean;
  why: string;
}

const inside = (folder: string) => (target: string) => target.startsWith(`${folder}/`);
// The HTTP layer of the server: it turns requests into calls of the domain and problems into responses.
const httpLayer = /^server\/(http\/|groups\/|app\.ts$|main\.ts$)/;
/** The folder of a test file: `test/server/payouts.test.ts` → `test/server`. */
const testFolder = (file: string) => file.split('/').slice(0, 2).join('/');

const rules: Rule[] = [
  {
    from: /^generated\//,
    forbidden: (t) => !inside('generated')(t),
    why: 'generated/ is derived from openapi/ alone and imports nothing else',
  },
  {
    from: /^client\//,
    forbidden: (t) => !inside('client')(t) && !inside('generated')(t) && t !== 'openapi-fetch' && !t.startsWith('node:'),
    why: 'the client is its own package: it imports generated/ and openapi-fetch only',
  },
  {
    from: /^server\//,
    forbidden: (t) => ['client', 'scripts', 'test', 'bench'].some((f) => inside(f)(t)),
    why: 'the service depends on generated/ and libraries only',
  },
  { from: /^(scripts|bench)\//, forbidden: inside('test'), why: 'scripts and benchmarks never depend on tests' },
  {
    from: /^scripts\/contract\//,
    forbidden: (t) => ['scripts/docs', 'scripts/mock'].some((f) => inside(f)(t)),
    why: 'the contract tooling is what the docs and the mocks build on, not the other way round',
  },
  {
    from: /^server\/(?!http\/|groups\/|app\.ts$|main\.ts$|start\.ts$)/,
    forbidden: (t) => httpLayer.test(t),
    why: 'domain code raises Problems (server/problems.ts); only the HTTP layer knows about requests and responses',
  },
  {
    // The assembly builds the app (HTTP) and the services (domain) of a process: only a process's entry uses it.
    from: /^server\/(?!main\.ts$|admin\/cli\.ts$)/,
    forbidden: (t) => t === 'server/start.ts',
    why: 'server/start.ts assembles a process: only its entries (main.ts, admin/cli.ts) import it',
  },
  {
    from: /^test\/[^/]+\//,
    forbidden: (t, file) => inside('test')(t) && !inside(testFolder(file))(t) && !inside('test/support')(t),
    why: 'a test folder imports its own files and test/support/ only: helpers used across folders live in test/support/',
  },
];

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** An import specifier as a repository path (`server/problems.ts`), or the package name it names. */
function targetOf(file: string, specifier: string): string {
  if (!specifier.startsWith('.'))
    return specifier.startsWith('node:')
      ? specifier
      : specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
  return relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
}

const violations: string[] = [];
for (const file of ['generated', 'client', 'server', 'scripts', 'bench', 'test'].flatMap(sources)) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const { fileName: specifier, pos } of ts.preProcessFile(text, true, true).importedFiles) {
    const target = targetOf(file, specifier);
    const line = text.slice(0, pos).split('\n').length;
    for (const rule of rules) {
      if (rule.from.test(file) && rule.forbidden(target, file)) violations.push(`${file}:${line} imports ${specifier}: ${rule.why}`);
    }
  }
}

if (violations.length > 0) {
  console.error(`The layering is broken (${violations.length}):\n  ${violations.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log('The layering holds.');
}
