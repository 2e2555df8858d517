// An example may leave out a required property whose schema shows an example (scripts/contract/filled-examples.ts):
// the bundle fills it in. First the rule on small documents, then what it is for: a required field added to the
// payout schema, with an example, in a copy of the contract, reaches every payout example of every group with that
// one edit, and the examples' check (what `npm run generate` and `npm run check` report) finds nothing to refuse;
// without the example, the check names each example that lacks the field.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDocuments } from '../../scripts/contract/bundle-documents.js';
import { deref, walk, type Node } from '../../scripts/contract/document.js';
import { fillExamples } from '../../scripts/contract/filled-examples.js';
import { exampleFindings } from '../../scripts/contract/lint-examples.js';

const root = new URL('../..', import.meta.url).pathname;

/** A document with one response whose schema is `schema` and whose example is `example`. */
const documentWith = (schema: Node, example: unknown, components: Node = {}): Node => ({
  openapi: '3.1.0',
  components: { schemas: components },
  paths: {
    '/x': { get: { responses: { '200': { content: { 'application/json': { schema, examples: { one: { value: example } } } } } } } },
  },
});
const exampleOf = (doc: Node) => doc.paths['/x'].get.responses['200'].content['application/json'].examples.one.value;

describe('filling examples', () => {
  it("adds each required property the example leaves out, from its schema's example, in the schema's order", () => {
    const doc = documentWith(
      {
        type: 'object',
        required: ['a', 'b', 'c', 'd'],
        properties: {
          a: { type: 'string', example: 'shown a' },
          b: { $ref: '#/components/schemas/B' },
          c: { type: 'string' },
          d: { type: 'integer', example: 7 },
          e: { type: 'string', example: 'optional' },
        },
      },
      { d: 1, a: 'its own' },
      { B: { type: 'string', example: 'from the ref' } },
    );
    expect(fillExamples(doc)).toBe(1);
    // Its own values stay; `c` has no example to show, so it stays out (and the check refuses it); `e` is optional.
    expect(Object.entries(exampleOf(doc))).toEqual([
      ['a', 'its own'],
      ['b', 'from the ref'],
      ['d', 1],
    ]);
  });

  it('fills at every depth: properties, array items, allOf, the one object branch of a oneOf, and a discriminated branch', () => {
    const item = {
      type: 'object',
      required: ['id', 'kind'],
      properties: { id: { type: 'string' }, kind: { type: 'string', example: 'k' } },
    };
    const doc = documentWith(
      {
        allOf: [{ type: 'object', required: ['top'], properties: { top: { type: 'string', example: 't' } } }],
        type: 'object',
        required: ['items', 'maybe', 'pet'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          maybe: { oneOf: [{ $ref: '#/components/schemas/Item' }, { type: 'null' }] },
          pet: {
            oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
            discriminator: { propertyName: 'type', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
          },
        },
      },
      { items: [{ id: '1' }, { id: '2', kind: 'own' }], maybe: { id: '3' }, pet: { type: 'dog' } },
      {
        Item: item,
        Cat: {
          type: 'object',
          required: ['type', 'lives'],
          properties: { type: { type: 'string' }, lives: { type: 'integer', example: 9 } },
        },
        Dog: {
          type: 'object',
          required: ['type', 'bark'],
          properties: { type: { type: 'string' }, bark: { type: 'string', example: 'woof' } },
        },
      },
    );
    expect(fillExamples(doc)).toBe(4);
    expect(exampleOf(doc)).toEqual({
      top: 't',
      items: [
        { id: '1', kind: 'k' },
        { id: '2', kind: 'own' },
      ],
      maybe: { id: '3', kind: 'k' },
      pet: { type: 'dog', bark: 'woof' },
    });
  });
});

describe('a required field added to the payout schema, in a copy of the contract', () => {
  let tree: string;
  const field = 'StatementDescriptor';

  beforeAll(async () => {
    tree = await mkdtemp(join(tmpdir(), 'contract-copy-'));
    await cp(join(root, 'openapi'), join(tree, 'openapi'), { recursive: true });
    await cp(join(root, 'redocly.yaml'), join(tree, 'redocly.yaml'));
  });
  afterAll(async () => {
    if (tree) await rm(tree, { recursive: true, force: true });
  });

  /** The payout schema with the new field, given `example` when there is one. */
  async function addField(example?: string): Promise<void> {
    const file = join(tree, 'openapi/shared/schemas/Payout.yaml');
    const source = await readFile(join(root, 'openapi/shared/schemas/Payout.yaml'), 'utf8');
    const added = source
      .replace(/^required: \[/m, `required: [${field}, `)
      .replace(
        /^properties:\n/m,
        `properties:\n  ${field}:\n    type: string\n    maxLength: 22\n    description: What the payee's bank statement shows.\n${example ? `    example: ${example}\n` : ''}`,
      );
    expect(added).not.toBe(source);
    await writeFile(file, added);
  }

  /** Every example value whose schema is the payout schema, by where it is, in every group. */
  function payoutExamples(bundles: Map<string, Node>): [string, Node][] {
    const out: [string, Node][] = [];
    for (const [group, doc] of bundles) {
      const payout = doc.components?.schemas?.Payout;
      walk(doc, (node, keys) => {
        if (keys[keys.length - 2] !== 'content' || !node || typeof node !== 'object') return;
        const media = node as Node;
        const schema = deref(doc, media.schema);
        if (schema === payout)
          for (const [name, example] of Object.entries<Node>(media.examples ?? {}))
            out.push([`${group} ${keys.join('/')} ${name}`, deref(doc, example).value]);
        // Lists: `{ data: [Payout] }`.
        const items = deref(doc, deref(doc, schema?.properties?.data)?.items);
        if (items === payout)
          for (const [name, example] of Object.entries<Node>(media.examples ?? {}))
            for (const value of deref(doc, example).value?.data ?? []) out.push([`${group} ${keys.join('/')} ${name}`, value]);
      });
    }
    return out;
  }

  it('reaches every payout example of every group from one edit, and the check finds nothing to refuse', async () => {
    await addField('ACME PAYOUT');
    const bundles = await bundleDocuments(tree);
    const examples = payoutExamples(bundles);
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const [where, value] of examples) expect(value[field], where).toBe('ACME PAYOUT');
    expect(await exampleFindings(bundles)).toEqual([]);
  }, 120_000);

  it('without an example for it, names each example that lacks it', async () => {
    await addField();
    const bundles = await bundleDocuments(tree);
    const findings = await exampleFindings(bundles);
    expect(findings.length).toBeGreaterThanOrEqual(payoutExamples(bundles).length);
    for (const finding of findings) expect(finding).toMatch(new RegExp(`^\\w+ #/\\S+: .*required property '${field}'`));
  }, 120_000);
});
