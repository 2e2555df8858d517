// The TypeScript the guides and READMEs teach compiles as a reader's Node project would compile it: strict, with
// @types/node and no DOM library, against the client package's types. Each ```ts block of README.md,
// client/README.md and docs/guides/*.md is a module of its own; the names a block takes from the prose around it
// (a client made earlier, the reader's own `handle`) are declared once in `context` below, so a block that
// misuses them fails. The quick start's walk-through and the webhooks guide's receiver are compiled as the pages
// show them (scripts/docs/quickstart.ts).
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groups, type Group } from '../../generated/index.js';
import { bundlePath, repoRoot, type Node } from '../../scripts/docs/contract.js';
import { clientCodeTexts } from '../../scripts/docs/quickstart.js';
import { readerDiagnostics } from '../support/reader-compile.js';

/** What the prose gives a block: declared, typed as the client makes them, never defined by a block. */
const context = `import type { MerchantClient, PartnerClient, PlatformClient, Credentials } from '@payout-service/client';
declare global {
  const merchant: MerchantClient;
  const platform: PlatformClient;
  const partner: PartnerClient;
  const baseUrl: string;
  const credentials: Credentials;
  const logger: { info(fields: object, message: string): void };
  const payee: { id: number };
  function seen(id: string): Promise<boolean>;
  function handle(event: unknown): Promise<void>;
}
export {};
`;

const sources = async (): Promise<string[]> => [
  'README.md',
  'client/README.md',
  ...(await readdir(join(repoRoot, 'docs/guides'))).filter((f) => f.endsWith('.md')).map((f) => `docs/guides/${f}`),
];

/** Every ```ts block of a Markdown file, with the line it starts on. */
const blocksOf = (file: string, text: string) =>
  [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({
    name: `${file.replace(/[/.]/g, '_')}-L${text.slice(0, m.index).split('\n').length}`,
    code: m[1]!,
  }));

describe('the TypeScript of the guides and READMEs', () => {
  it('compiles strict, with @types/node, against the client package', async () => {
    const dir = join(repoRoot, 'test-results/guide-code');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    try {
      const blocks: { name: string; code: string }[] = [];
      for (const file of await sources()) blocks.push(...blocksOf(file, await readFile(join(repoRoot, file), 'utf8')));
      const bundles = Object.fromEntries(
        await Promise.all(groups.map(async (g) => [g, JSON.parse(await readFile(bundlePath(g), 'utf8'))] as const)),
      ) as Record<Group, Node>;
      const { client, receiver } = await clientCodeTexts(bundles);
      blocks.push({ name: 'quick-start-client', code: client }, { name: 'webhooks-receiver', code: receiver });
      // Every file the guides are known to teach TypeScript in has some; the receiver is there.
      expect(blocks.map((b) => b.name.replace(/-L\d+$/, ''))).toEqual(
        expect.arrayContaining(['README_md', 'client_README_md', 'docs_guides_webhooks_md', 'webhooks-receiver']),
      );
      const files = [join(dir, 'context.d.ts')];
      await writeFile(files[0]!, context);
      for (const b of blocks) {
        const file = join(dir, `${b.name}.ts`);
        // A module each, so that two blocks may both declare `merchant`.
        await writeFile(file, /^(import|export) /m.test(b.code) ? b.code : `${b.code}\nexport {};\n`);
        files.push(file);
      }
      const errors = readerDiagnostics(files, dir, { onlyUnder: true });
      expect(errors).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
