// express-openapi-validator 5.6 spends most of building a group's validator on work these documents do not need:
// about 1 s of CPU for the merchant document, 0.35 s without the three below, and a fresh start's first API answer
// waits for it (README: "Fast start"). Each leaves the validator with what it had before;
// test/server/validator-startup.test.ts proves it for every bundled document, and installing throws when the
// validator's internals are not where 5.6.2 has them, so an upgrade cannot quietly lose them.
//
// 1. Every document compiles the OpenAPI meta-schema, even with validateApiSpec: false, which never uses it
//    (framework/openapi.schema.validator.js): here it is compiled on first use. mountGroup passes
//    validateApiSpec: false; the test checks the documents against the meta-schema instead, once per `npm test`.
// 2. The preprocessor resolves each local $ref by compiling its target with ajv and reading back the schema
//    (middlewares/parsers/schema.preprocessor.js, resolveSchema): the object its JSON pointer names, found here
//    without compiling.
// 3. The document is bundled again (json-schema-ref-parser). When every $ref names a component directly, and no
//    component is a $ref itself, bundling leaves it as it is (`npm run generate` writes such documents): it is
//    handed back unchanged.
import { createRequire } from 'node:module';

type Document = Record<string, unknown>;
type SchemaValidatorClass = new (options: { version: string; validateApiSpec: boolean }) => { validate(doc: unknown): unknown };
interface Preprocessor {
  apiDoc: Document;
  resolvedSchemaCache: Map<string, unknown>;
  resolveSchema(schema: unknown): unknown;
}
type Bundle = (...args: unknown[]) => Promise<unknown>;

/** The three parts of the validator changed here, as it exports them. */
export interface ValidatorInternals {
  schemaValidatorModule: { OpenAPISchemaValidator: SchemaValidatorClass };
  preprocessor: { prototype: Preprocessor };
  refParser: { bundle: Bundle };
}

type Originals = { OpenAPISchemaValidator: SchemaValidatorClass; resolveSchema: Preprocessor['resolveSchema']; bundle: Bundle };
/** Where the parts as they were are kept: on the validator's own module object, shared by every importer. */
const originalsKey = Symbol.for('payout-service.validator-startup');
type Holder = { [originalsKey]?: Originals };

/** The modules express-openapi-validator itself loads (its own json-schema-ref-parser included). */
export function validatorInternals(): ValidatorInternals {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const internals = {
    schemaValidatorModule: fromValidator('./framework/openapi.schema.validator.js'),
    preprocessor: fromValidator('./middlewares/parsers/schema.preprocessor.js').SchemaPreprocessor,
    refParser: fromValidator('@apidevtools/json-schema-ref-parser'),
  } as ValidatorInternals;
  if (
    typeof internals.schemaValidatorModule?.OpenAPISchemaValidator !== 'function' ||
    typeof internals.preprocessor?.prototype?.resolveSchema !== 'function' ||
    typeof internals.refParser?.bundle !== 'function'
  )
    throw new Error('express-openapi-validator has moved the internals validator-startup.ts changes; revisit that module.');
  return internals;
}

/** The value a local JSON pointer (`#/components/schemas/Payee`) names in `document`, or undefined. */
export function atPointer(document: unknown, ref: string): unknown {
  let node = document;
  for (const token of ref.slice(2).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

const componentRef = /^#\/components\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** Whether bundling would leave `document` as it is: every $ref names an existing component, none a $ref itself. */
export function refsNameComponentsDirectly(document: unknown): boolean {
  const pending: unknown[] = [document];
  const good = new Set<string>(); // a document names each component many times
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (ref !== undefined && !good.has(ref as string)) {
      if (typeof ref !== 'string' || !componentRef.test(ref)) return false;
      const target = atPointer(document, ref);
      if (target === null || typeof target !== 'object' || '$ref' in target) return false;
      good.add(ref);
    }
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') pending.push(value);
  }
  return true;
}

/** The parts as they were before installValidatorStartupShortcuts (what the test compares against). */
export function originalValidatorParts(internals: ValidatorInternals = validatorInternals()): Originals {
  return (
    (internals.schemaValidatorModule as Holder)[originalsKey] ?? {
      OpenAPISchemaValidator: internals.schemaValidatorModule.OpenAPISchemaValidator,
      resolveSchema: internals.preprocessor.prototype.resolveSchema,
      bundle: internals.refParser.bundle,
    }
  );
}

export function installValidatorStartupShortcuts(): void {
  const internals = validatorInternals();
  const { schemaValidatorModule, preprocessor, refParser } = internals;
  if ((schemaValidatorModule as Holder)[originalsKey]) return;
  const before = originalValidatorParts(internals);
  Object.defineProperty(schemaValidatorModule, originalsKey, { value: before });

  const Eager = before.OpenAPISchemaValidator;
  schemaValidatorModule.OpenAPISchemaValidator = class CompiledOnFirstUse {
    readonly #options: ConstructorParameters<SchemaValidatorClass>[0];
    #compiled: InstanceType<SchemaValidatorClass> | undefined;
    constructor(options: ConstructorParameters<SchemaValidatorClass>[0]) {
      this.#options = options;
    }
    validate(doc: unknown): unknown {
      this.#compiled ??= new Eager(this.#options);
      return this.#compiled.validate(doc);
    }
  };

  preprocessor.prototype.resolveSchema = function resolveSchema(this: Preprocessor, schema: unknown): unknown {
    const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return before.resolveSchema.call(this, schema);
    if (this.resolvedSchemaCache.has(ref)) return this.resolvedSchemaCache.get(ref);
    const target = atPointer(this.apiDoc, ref);
    if (target === undefined) return before.resolveSchema.call(this, schema);
    this.resolvedSchemaCache.set(ref, target);
    return target;
  };

  refParser.bundle = function bundle(this: unknown, ...args: unknown[]): Promise<unknown> {
    const [document] = args;
    if (args.length === 1 && document !== null && typeof document === 'object' && refsNameComponentsDirectly(document))
      return Promise.resolve(document);
    return before.bundle.apply(this, args);
  };
}
