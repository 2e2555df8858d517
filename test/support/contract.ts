// Loads the bundled documents (generated/<group>/openapi.json) and compiles their schemas with Ajv's JSON
// Schema 2020-12 dialect (OpenAPI 3.1's), the same dialect the server's validator and Prism use.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { groups, type Group } from '../../generated/index.js';
import { deref, httpMethods, operationsOf as operationsOfDocument } from '../../scripts/contract/document.js';

export type Json = Record<string, any>;

export const bundles = Object.fromEntries(
  groups.map((g) => [g, JSON.parse(readFileSync(new URL(`../../generated/${g}/openapi.json`, import.meta.url), 'utf8')) as Json]),
) as Record<Group, Json>;

function makeAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  for (const g of groups) ajv.addSchema({ ...bundles[g], $id: `https://payouts.example/contract/${g}` } as object);
  return ajv;
}
const ajv = makeAjv();

/** A validator for the schema at a JSON pointer of a group's bundle (`#/components/schemas/Payee`). */
export function validatorAt(group: Group, pointer: string): ValidateFunction {
  const fn = ajv.getSchema(`https://payouts.example/contract/${group}${pointer}`);
  if (!fn) throw new Error(`no schema at ${group}${pointer}`);
  return fn;
}

/** The node, or what its `$ref`s name (the scripts' own resolver). */
export const resolve = deref;

export const methods = httpMethods;

/** Every operation of a group: path, method, operation object and the JSON pointer to it. */
export function operationsOf(group: Group): { path: string; method: string; op: Json; pointer: string }[] {
  return operationsOfDocument(bundles[group]).map(({ path, method, op, pointer }) => ({ path, method, op, pointer }));
}
