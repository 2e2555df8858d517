// The validator's start-up shortcuts (server/http/validator-startup.ts) leave it with what it had without them,
// for every bundled document: the document passes the validator's own check against the OpenAPI schema (which
// the service no longer runs at start), bundling would hand it back unchanged, and preprocessing with local refs
// found by pointer gives the same document as resolving each through ajv.
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { loadDocument } from '../../server/http/groups/registry.js';
import {
  installValidatorStartupShortcuts,
  originalValidatorParts,
  refsNameComponentsDirectly,
  validatorInternals,
} from '../../server/http/validator-startup.js';

const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const { OpenApiValidator } = fromValidator('./openapi.validator.js') as {
  OpenApiValidator: new (options: object) => { ajvOpts: { preprocessor: object } };
};

const internals = validatorInternals();
const original = originalValidatorParts(internals);
installValidatorStartupShortcuts();
const documents = groups.map((group) => ({ group, document: loadDocument(group) as Record<string, unknown> }));

/** The preprocessor as mountGroup's options build it (responses validated, as in development and tests). */
function preprocess(document: object, resolveSchema?: (schema: unknown) => unknown): unknown {
  const options = new OpenApiValidator({
    apiSpec: document,
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
    validateResponses: { allErrors: true },
    validateFormats: true,
    ajvFormats: { mode: 'full' },
  }).ajvOpts.preprocessor;
  const Preprocessor = internals.preprocessor as unknown as new (
    doc: object,
    ajv: object,
    responses: object,
  ) => { preProcess(): unknown; resolveSchema(schema: unknown): unknown };
  const preprocessor = new Preprocessor(document, options, { allErrors: true });
  if (resolveSchema) preprocessor.resolveSchema = resolveSchema;
  return preprocessor.preProcess();
}

describe('validator start-up shortcuts', () => {
  it('are installed once, on the modules the validator loads', () => {
    const installed = internals.schemaValidatorModule.OpenAPISchemaValidator;
    expect(installed).not.toBe(original.OpenAPISchemaValidator);
    expect(internals.preprocessor.prototype.resolveSchema).not.toBe(original.resolveSchema);
    expect(internals.refParser.bundle).not.toBe(original.bundle);
    installValidatorStartupShortcuts();
    expect(internals.schemaValidatorModule.OpenAPISchemaValidator).toBe(installed);
  });

  it.each(documents)('the $group document passes the validator’s check against the OpenAPI schema', ({ document }) => {
    const check = new original.OpenAPISchemaValidator({ version: String(document.openapi), validateApiSpec: true });
    expect(check.validate(document)).toEqual({ errors: [] });
    const { info: _info, ...withoutInfo } = document;
    expect((check.validate(withoutInfo) as { errors: unknown[] }).errors).not.toEqual([]);
  });

  it.each(documents)('bundling hands the $group document back unchanged', async ({ document }) => {
    expect(refsNameComponentsDirectly(document)).toBe(true);
    const input = structuredClone(document);
    expect(await internals.refParser.bundle(input)).toBe(input);
    expect(await original.bundle.call(internals.refParser, structuredClone(document))).toEqual(document);
  });

  it('bundles a document whose refs do not all name a component directly, as before', async () => {
    const chained = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { type: 'string' }, C: { $ref: '#/components/schemas/A' } } },
    };
    expect(refsNameComponentsDirectly(chained)).toBe(false);
    const bundled = (await internals.refParser.bundle(structuredClone(chained))) as typeof chained;
    expect(bundled.components.schemas.C).toEqual({ $ref: '#/components/schemas/B' });
  });

  it.each(documents)('preprocessing the $group document gives what resolving refs through ajv gives', ({ document }) => {
    const shortcut = preprocess(structuredClone(document));
    const throughAjv = preprocess(structuredClone(document), original.resolveSchema);
    expect(isDeepStrictEqual(shortcut, throughAjv)).toBe(true);
  });
});
