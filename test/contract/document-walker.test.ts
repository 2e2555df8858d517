// The one document walker every script reads the contract through (scripts/contract/document.ts).
import { describe, expect, it } from 'vitest';
import {
  deref,
  isReferenced,
  keysOf,
  locate,
  operationsOf,
  pointerOf,
  resolveRef,
  rewrite,
  walk,
} from '../../scripts/contract/document.js';
import { bundles } from '../support/contract.js';

const doc = {
  paths: {
    '/v1/payees/{id}': { $ref: '#/components/pathItems/payee' },
    '/a~b': { post: { operationId: 'tilde' }, get: { operationId: 'tildeRead' } },
  },
  webhooks: { 'payout.created': { post: { operationId: 'payoutCreatedWebhook' } } },
  components: {
    pathItems: { payee: { parameters: [{ name: 'id' }], get: { operationId: 'getPayee' } } },
    schemas: {
      'a/b': { type: 'string' },
      'c~d': { $ref: '#/components/schemas/a~1b' },
      chain: { $ref: '#/components/schemas/c~0d' },
      loop: { $ref: '#/components/schemas/loop' },
      remote: { $ref: 'other.yaml#/x' },
      'with space': { type: 'integer' },
    },
  },
};

describe('the document walker', () => {
  it('reads a pointer with ~0, ~1 and percent escapes, and writes one back', () => {
    expect(keysOf('#/components/schemas/a~1b')).toEqual(['components', 'schemas', 'a/b']);
    expect(keysOf('#/components/schemas/c~0d')).toEqual(['components', 'schemas', 'c~d']);
    expect(keysOf('#/components/schemas/with%20space')).toEqual(['components', 'schemas', 'with space']);
    expect(keysOf('#')).toEqual([]);
    expect(pointerOf(['paths', '/a~b', 'post'])).toBe('#/paths/~1a~0b/post');
    expect(resolveRef(doc, '#/components/schemas/with%20space')).toEqual({ type: 'integer' });
    expect(resolveRef(doc, '#/components/schemas/none/deeper')).toBeUndefined();
  });

  it('follows chains of local $refs, stops on a cycle and leaves a file $ref as it is', () => {
    expect(deref(doc, doc.components.schemas.chain)).toEqual({ type: 'string' });
    expect(deref(doc, doc.components.schemas.loop)).toEqual({ $ref: '#/components/schemas/loop' });
    expect(deref(doc, doc.components.schemas.remote)).toBe(doc.components.schemas.remote);
    expect(deref(doc, undefined)).toBeUndefined();
    expect(locate(doc, doc.components.schemas.chain, '#/components/schemas/chain')).toEqual([
      { type: 'string' },
      '#/components/schemas/a~1b',
    ]);
  });

  it('lists operations in document and method order, path items followed, with their pointers', () => {
    expect(operationsOf(doc).map((o) => [o.path, o.method, o.op.operationId, o.pointer])).toEqual([
      ['/v1/payees/{id}', 'get', 'getPayee', '#/paths/~1v1~1payees~1{id}/get'],
      ['/a~b', 'get', 'tildeRead', '#/paths/~1a~0b/get'],
      ['/a~b', 'post', 'tilde', '#/paths/~1a~0b/post'],
    ]);
    expect(operationsOf(doc)[0]!.pathItem.parameters).toEqual([{ name: 'id' }]);
    expect(operationsOf(doc, 'webhooks').map((o) => o.pointer)).toEqual(['#/webhooks/payout.created/post']);
  });

  it('walks every node with its keys, which resolve back to the node', () => {
    const seen: string[] = [];
    walk(bundles.merchant, (node, keys) => {
      if (keys.length > 0 && keys.length < 4) seen.push(pointerOf(keys));
      expect(resolveRef(bundles.merchant, pointerOf(keys))).toBe(node);
    });
    expect(seen).toContain('#/paths/~1v1~1payouts');
    expect(isReferenced(bundles.merchant, '#/components/schemas/Problem')).toBe(true);
    expect(isReferenced(bundles.merchant, '#/components/schemas/NoSuchSchema')).toBe(false);
  });

  it('rewrites children first, putting what a visitor returns in place', () => {
    const out = rewrite(structuredClone(doc.components.schemas), (node) => (node.$ref ? { was: node.$ref } : undefined));
    expect(out).toMatchObject({ chain: { was: '#/components/schemas/c~0d' }, 'a/b': { type: 'string' } });
  });
});
