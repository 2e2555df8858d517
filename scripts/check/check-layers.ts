// `npm run check` step: the layering of the code, read off the import graph. Data flows one way:
// openapi/ → generated/ → server/, client/, docs (scripts/); tests and benchmarks sit on top. Each rule below
// names what a folder may not import; any import that breaks one fails the check with the file and the line.
// And no module reaches itself through its imports: a cycle (type-only imports included) is reported with its
// path, since a circle of modules is one module in several files whose load order decides what is undefined.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

interface Rule {
  /** Files the rule applies to, by their path from the repository root. */
  from: RegExp;
  /** A repository path (or a package name) these files may not import, given the importing file. */
  forbidden: (target: string, file: string) => boolean;
  why: string;
}

const inside = (folder: string) => (target: string) => target.startsWith(`${folder}/`);
// The server's layers, each a folder: platform (store, ids, money, workers, log, limits, problems) knows nothing of
// the service's rules; domain (payees, payouts, partners, banking, webhooks, events, auth, ...) holds them and knows
// nothing of HTTP; http (the app, the groups' handlers, the middleware) turns requests into domain calls. // assembly (start.ts) and the entries (main.ts, admin/) sit above all three.
const platform = inside('server/platform');
const domain = inside('server/domain');
const http = inside('server/http');
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
  {
    // The console is a browser app of the public API: the client package (by its name), the console document's
    // generated types, openapi-fetch (the client's own base, for the console document) and Preact.
    from: /^console\//,
    forbidden: (t) =>
      !inside('console')(t) &&
      !inside('generated/console')(t) &&
      !['@payout-service/client', 'openapi-fetch', 'preact', 'vite'].includes(t) &&
      !(t === 'node:url' || t === 'node:path'),
    why: 'the console talks to the service only through the client package and the console document’s generated types',
  },
  { from: /^(scripts|bench)\//, forbidden: inside('test'), why: 'scripts and benchmarks never depend on tests' },
  {
    from: /^scripts\/contract\//,
    forbidden: (t) => ['scripts/docs', 'scripts/mock'].some((f) => inside(f)(t)),
    why: 'the contract tooling is what the docs and the mocks build on, not the other way round',
  },
  {
    from: /^server\/platform\//,
    forbidden: (t) => domain(t) || http(t) || (inside('server')(t) && !platform(t)),
    why: 'server/platform/ is the ground floor (store, ids, money, workers, log): it imports no other part of server/',
  },
  {
    from: /^server\/domain\//,
    forbidden: (t) => http(t) || (inside('server')(t) && !domain(t) && !platform(t)),
    why: 'domain code raises Problems (server/platform/problems.ts); only the HTTP layer knows about requests and responses',
  },
  {
    from: /^server\/http\//,
    forbidden: (t) => inside('server')(t) && !http(t) && !domain(t) && !platform(t) && t !== 'server/start.ts',
    why: 'the HTTP layer calls the domain and the platform; what sits above it (the assembly, the entries) is not its to import',
  },
  {
    from: /^server\/[^/]+\.ts$/,
    forbidden: (t) => t === 'express' || t.startsWith('express-'),
    why: 'the assembly wires the layers; what knows Express is server/http/',
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

function sources(root: string, folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** An import specifier as a repository path (`server/platform/problems.ts`), or the package name it names. */
function targetOf(root: string, file: string, specifier: string): string {
  if (!specifier.startsWith('.'))
    return specifier.startsWith('node:')
      ? specifier
      : specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
  const path = relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
  // A `.js` specifier names a `.tsx` module too (the console's components).
  return path.endsWith('.ts') && !existsSync(join(root, path)) && existsSync(join(root, `${path}x`)) ? `${path}x` : path;
}

/** Every import cycle among `files`, each once, as the path that closes it (`a.ts → b.ts → a.ts`). */
export function importCycles(imports: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components: a component of two or more files (or a file importing itself) holds
  // a cycle; one path around it is reported, found by a walk inside the component.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of imports.get(file) ?? []) {
      if (!imports.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (imports.get(file) ?? []).includes(file)) components.push(component);
    }
  };
  for (const file of [...imports.keys()].sort()) if (!index.has(file)) visit(file);
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    // Breadth-first from the start back to it, inside the component: the shortest cycle through it.
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const target of imports.get(file) ?? []) {
        if (!members.has(target)) continue;
        if (target === start) {
          const path = [start];
          for (let at: string | undefined = file; at !== undefined && at !== start; at = previous.get(at)) path.splice(1, 0, at);
          return [...path, start];
        }
        if (!previous.has(target) && target !== start) {
          previous.set(target, file);
          queue.push(target);
        }
      }
    }
    return [start, start];
  });
}

/** HTTP's own words, which only server/http/ writes: the domain and the platform state a challenge or a delay as data. */
const httpWords = /^(www-authenticate|retry-after)$/i;
const speaksNoHttp = /^server\/(domain|platform)\//;

/** The string literals of a source that name an HTTP header of `httpWords` (comments are not code), with their lines. */
function httpWordsIn(text: string): { word: string; line: number }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const found: { word: string; line: number }[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const literal = token === ts.SyntaxKind.StringLiteral || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral;
    if (literal && httpWords.test(scanner.getTokenValue()))
      found.push({ word: scanner.getTokenValue(), line: text.slice(0, scanner.getTokenStart()).split('\n').length });
  }
  return found;
}

/** What breaks the layering or closes a cycle in the repository at `root`: one line each, empty when it holds. */
export function layeringViolations(root: string): string[] {
  const violations: string[] = [];
  const imports = new Map<string, string[]>();
  for (const file of ['generated', 'client', 'server', 'console', 'scripts', 'bench', 'test'].flatMap((folder) => sources(root, folder))) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets: string[] = [];
    for (const { fileName: specifier, pos } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = targetOf(root, file, specifier);
      targets.push(target);
      const line = text.slice(0, pos).split('\n').length;
      for (const rule of rules) {
        if (rule.from.test(file) && rule.forbidden(target, file)) violations.push(`${file}:${line} imports ${specifier}: ${rule.why}`);
      }
    }
    imports.set(file, targets);
    if (speaksNoHttp.test(file))
      for (const { word, line } of httpWordsIn(text))
        violations.push(
          `${file}:${line} names the header ${word}: a Problem states its challenge or retry delay as data, and server/http/ writes headers`,
        );
  }
  for (const cycle of importCycles(imports)) violations.push(`an import cycle: ${cycle.join(' → ')}`);
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const violations = layeringViolations(resolve(fileURLToPath(new URL('../..', import.meta.url))));
  if (violations.length > 0) {
    console.error(`The layering is broken (${violations.length}):\n  ${violations.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('The layering holds, with no import cycle.');
  }
}
