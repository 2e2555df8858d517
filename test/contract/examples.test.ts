// Every example in every document (request bodies, responses, parameters, webhooks) is valid against its
// schema: they are what the docs show and what Prism serves, so a wrong one misleads every reader.
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { escapeToken as esc, locate as follow } from '../../scripts/contract/document.js';
import { bundles, methods, validatorAt, type Json } from '../support/contract.js';

interface Example {
  where: string;
  schemaPointer: string;
  value: unknown;
}

function examplesOf(group: (typeof groups)[number]): Example[] {
  const doc = bundles[group];
  const out: Example[] = [];
  const content = (where: string, node: any, pointer: string) => {
    for (const [media, mt] of Object.entries<Json>(node?.content ?? {})) {
      for (const [name, ex] of Object.entries<Json>(mt.examples ?? {})) {
        const [example] = follow(doc, ex, '');
        out.push({
          where: `${where} ${media} example ${name}`,
          schemaPointer: `${pointer}/content/${esc(media)}/schema`,
          value: example.value,
        });
      }
    }
  };
  const operation = (where: string, op: Json, opPointer: string, itemParams: any[] = [], itemPointer = '') => {
    if (op.requestBody) {
      const [rb, p] = follow(doc, op.requestBody, `${opPointer}/requestBody`);
      content(`${where} request`, rb, p);
    }
    for (const [status, raw] of Object.entries<Json>(op.responses ?? {})) {
      const [response, p] = follow(doc, raw, `${opPointer}/responses/${status}`);
      content(`${where} ${status}`, response, p);
    }
    const params = [
      ...itemParams.map((raw, i) => follow(doc, raw, `${itemPointer}/parameters/${i}`)),
      ...(op.parameters ?? []).map((raw: any, i: number) => follow(doc, raw, `${opPointer}/parameters/${i}`)),
    ];
    for (const [param, p] of params) {
      if ('example' in param) out.push({ where: `${where} parameter ${param.name}`, schemaPointer: `${p}/schema`, value: param.example });
    }
  };
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of methods) {
      if (item[method])
        operation(
          `${method.toUpperCase()} ${path}`,
          item[method],
          `#/paths/${esc(path)}/${method}`,
          item.parameters ?? [],
          `#/paths/${esc(path)}`,
        );
    }
  }
  for (const [name, item] of Object.entries<Json>(doc.webhooks ?? {})) {
    const [resolved, p] = follow(doc, item, `#/webhooks/${esc(name)}`);
    operation(`webhook ${name}`, resolved.post, `${p}/post`);
  }
  return out;
}

describe.each(groups)('%s examples', (group) => {
  const examples = examplesOf(group);

  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s is valid', (_, example) => {
    const validate = validatorAt(group, example.schemaPointer);
    const valid = validate(example.value);
    expect(validate.errors ?? [], JSON.stringify(example.value)).toEqual([]);
    expect(valid).toBe(true);
  });
});
