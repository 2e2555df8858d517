// The TypeScript a reader of the docs writes, compiled as their project would compile it: strict, NodeNext, with
// @types/node, against the client package's sources (the types it ships). Used by the docs' sample and guide tests.
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../../scripts/docs/contract.js';

/** Each diagnostic, as `<file under dir>:<line>: <message>`. `dom` adds the DOM library (a browser reader too);
 * `onlyUnder` keeps those of the files under `dir` (a Node reader's: the client's own sources assume the DOM's). */
export function readerDiagnostics(files: string[], dir: string, { dom = false, onlyUnder = false } = {}): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', ...(dom ? ['lib.dom.d.ts'] : [])],
    types: ['node'],
    typeRoots: [join(repoRoot, 'node_modules/@types')],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    // The package's name resolves to its sources, whose types the package ships (client/package.json).
    paths: { '@payout-service/client': [join(repoRoot, 'client/index.ts')] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !onlyUnder || !d.file || d.file.fileName.startsWith(dir))
    .map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${d.file ? d.file.fileName.replace(`${dir}/`, '') : ''}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}
