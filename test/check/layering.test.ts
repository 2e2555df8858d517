// `npm run check:layers` refuses an import across the layers and an import cycle, and passes a tree that keeps both
// rules: fixture trees written to a temporary folder, checked by the same function the check runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCycles, layeringViolations } from '../../scripts/check/check-layers.js';

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A repository of these files (path → source) in a fresh folder. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layering-'));
  trees.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

describe('the layering check', () => {
  it('passes a tree whose imports flow one way', () => {
    const root = tree({
      'generated/index.ts': 'export const groups = [] as const;\n',
      'server/platform/problems.ts': "import { groups } from '../../generated/index.js';\nexport const all = groups;\n",
      'server/domain/payouts/payouts.ts': "import { all } from '../../platform/problems.js';\nexport const p = all;\n",
      'server/http/errors.ts': "import { p } from '../domain/payouts/payouts.js';\nexport const e = p;\n",
      'server/start.ts': "import { e } from './http/errors.js';\nexport const s = e;\n",
    });
    expect(layeringViolations(root)).toEqual([]);
  });

  it('refuses domain code importing the HTTP layer, naming the file and line', () => {
    const root = tree({
      'server/http/errors.ts': 'export const e = 1;\n',
      'server/domain/payouts/payouts.ts': "// a comment\nimport { e } from '../../http/errors.js';\nexport const p = e;\n",
    });
    expect(layeringViolations(root)).toEqual([
      expect.stringMatching(/^server\/domain\/payouts\/payouts\.ts:2 imports \.\.\/\.\.\/http\/errors\.js: domain code raises Problems/),
    ]);
  });

  it('refuses a header name in domain or platform code, and lets comments and server/http/ name it', () => {
    const root = tree({
      'server/domain/auth/limits.ts': "// says `Retry-After` in a comment\nexport const h = { 'Retry-After': '5' };\n",
      'server/platform/challenge.ts': 'export const c = `WWW-Authenticate`;\n',
      'server/http/errors.ts': "export const w = 'WWW-Authenticate';\n",
    });
    expect(layeringViolations(root).sort()).toEqual([
      expect.stringMatching(/^server\/domain\/auth\/limits\.ts:2 names the header Retry-After: a Problem states/),
      expect.stringMatching(/^server\/platform\/challenge\.ts:1 names the header WWW-Authenticate/),
    ]);
  });

  it('refuses the platform importing the domain, and the HTTP layer importing the assembly', () => {
    const root = tree({
      'server/start.ts': 'export const s = 1;\n',
      'server/domain/events/events.ts': 'export const ev = 1;\n',
      'server/platform/store/cursor.ts': "import { ev } from '../../domain/events/events.js';\nexport const c = ev;\n",
      'server/http/app.ts': "import { s } from '../start.js';\nexport const a = s;\n",
    });
    expect(layeringViolations(root)).toEqual([
      expect.stringMatching(/^server\/http\/app\.ts:1 imports \.\.\/start\.js: server\/start\.ts assembles a process/),
      expect.stringMatching(/^server\/platform\/store\/cursor\.ts:1 imports .*: server\/platform\/ is the ground floor/),
    ]);
  });

  it('lets the console import the client package by name and the console types, and refuses the rest of the repository', () => {
    const root = tree({
      'generated/console/schema.ts': 'export interface paths {}\n',
      'client/index.ts': 'export const c = 1;\n',
      'server/http/app.ts': 'export const a = 1;\n',
      'console/src/page.tsx': 'export const page = 1;\n',
      'console/src/app.tsx':
        "import { c } from '@payout-service/client';\nimport type { paths } from '../../generated/console/schema.js';\n" +
        "import { page } from './page.js';\nimport { a } from '../../server/http/app.js';\nimport { x } from '../../client/index.js';\n" +
        'export const all = [c, page, a, x] as unknown as paths;\n',
    });
    expect(layeringViolations(root)).toEqual([
      expect.stringMatching(
        /^console\/src\/app\.tsx:4 imports \.\.\/\.\.\/server\/http\/app\.js: the console talks to the service only through/,
      ),
      expect.stringMatching(/^console\/src\/app\.tsx:5 imports \.\.\/\.\.\/client\/index\.js: the console talks/),
    ]);
  });

  it('follows a `.js` specifier to a `.tsx` module when it looks for cycles', () => {
    const root = tree({
      'console/src/a.tsx': "import { b } from './b.js';\nexport const a = b;\n",
      'console/src/b.tsx': "import { a } from './a.js';\nexport const b = a;\n",
    });
    expect(layeringViolations(root)).toEqual(['an import cycle: console/src/a.tsx → console/src/b.tsx → console/src/a.tsx']);
  });

  it('refuses an import cycle, type-only imports included, with its path', () => {
    const root = tree({
      'server/payments/payments.ts': "import { cancel } from './cancellation.js';\nexport const pay = () => cancel;\n",
      'server/payments/cancellation.ts': "import type { Event } from './events.js';\nexport const cancel = (e?: Event) => e;\n",
      'server/payments/events.ts': "import { pay } from './payments.js';\nexport type Event = ReturnType<typeof pay>;\n",
    });
    expect(layeringViolations(root)).toEqual([
      'an import cycle: server/payments/cancellation.ts → server/payments/events.ts → server/payments/payments.ts → server/payments/cancellation.ts',
    ]);
  });
});

describe('importCycles', () => {
  it('reports each cycle once, a file importing itself too, and nothing for a diamond', () => {
    const graph = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', []],
      ['x', ['y']],
      ['y', ['z', 'x']],
      ['z', ['x']],
      ['self', ['self']],
    ]);
    expect(importCycles(graph)).toEqual(
      expect.arrayContaining([
        ['self', 'self'],
        ['x', 'y', 'x'],
      ]),
    );
    expect(importCycles(graph)).toHaveLength(2);
  });
});
