// One mechanism per concern (issue 23): each is written once in server/, and this keeps it so. A second cursor
// codec, sandbox check, spelling of the environment type, token re-check in a handler or hand-built result fails
// here with the file that has it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const serverFiles = (readdirSync(join(root, 'server'), { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ path: relative(root, join(root, 'server', f)), text: readFileSync(join(root, 'server', f), 'utf8') }));
const where = (pattern: RegExp) => serverFiles.filter((f) => pattern.test(f.text)).map((f) => f.path);

describe('one mechanism per concern in server/', () => {
  it('one cursor codec and one bad-cursor problem', () => {
    expect(where(/cursor is not one this service issued/i)).toEqual(['server/platform/store/cursor.ts']);
    expect(where(/function (en|de)codeCursor|toString\('base64url'\)[^;]*cursor/i)).toEqual(['server/platform/store/cursor.ts']);
  });

  it('one sandbox guard', () => {
    expect(where(/[!=]== 'sandbox'|[!=]== 'production'|startsWith\('simulate'\)/).sort()).toEqual([
      'server/domain/sandbox.ts',
      'server/platform/config.ts',
    ]);
  });

  it('one Environment type', () => {
    expect(where(/'sandbox' \| 'production'|'production' \| 'sandbox'/)).toEqual(['server/platform/environment.ts']);
  });

  it('handlers read the caller from their context and answer through the result helpers', () => {
    const handlers = serverFiles.filter((f) => /^server\/http\/groups\/[^/]+\/handlers\.ts$/.test(f.path));
    expect(handlers).toHaveLength(6);
    for (const f of handlers) {
      expect(f.text, f.path).not.toMatch(/merchantOf\(|partnerOf\(|principal/);
      expect(f.text, f.path).not.toMatch(/status:\s*\d/);
    }
  });
});
