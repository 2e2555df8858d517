// Valid inputs for an operation: request bodies that satisfy its contract, built from openapi-sampler's
// samples of the request schema and the documented examples, then mutated by fast-check one property at a
// time, at any depth (dropped when optional, or replaced by a value generated from its own schema). Every
// mutation is checked against the contract with Ajv and kept only when the body stays valid. Ids are then
// pointed at resources the fuzzing tenant owns, most of the time, so that valid bodies can succeed.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { sample } from 'openapi-sampler';
import type { Group } from '../../generated/index.js';
import { bundles, resolve, validatorAt, type Json } from '../support/contract.js';
import { requestExamples, type Parameter, type ServedOperation } from '../support/operations.js';
import type { Tenant } from '../support/tenant.js';

/** For parameter schemas, which are self-contained: tells which pool values fit a parameter. */
const standalone = new Ajv2020({ strict: false, validateFormats: true });
addFormats.default(standalone);
standalone.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
standalone.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });

/** A parameter schema with every `$ref` inlined (an array parameter's items name a component), compiled once. */
const compiled = new WeakMap<object, ReturnType<typeof standalone.compile>>();
function inlineRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inlineRefs);
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string') {
    const holder = Object.values(bundles).find((doc) => resolve(doc, node) !== undefined);
    return inlineRefs(resolve(holder!, node));
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlineRefs(v)]));
}
function validatorOf(schema: object) {
  const known = compiled.get(schema);
  if (known) return known;
  const v = standalone.compile(inlineRefs(schema) as object);
  compiled.set(schema, v);
  return v;
}

/** Real values per property or parameter name, by group: what the fuzzing tenant owns. */
export type Pools = Record<string, (string | number)[]>;

export function poolsFor(t: Tenant, group: Group): Pools {
  const partner = group === 'partner' || group === 'counterparty';
  const payees = [t.ids.payee, t.ids.platformPayee, t.ids.achRecipient, t.ids.wireRecipient, t.ids.counterparty];
  const common: Pools = {
    client_id: [t.merchantCredentials.clientId],
    client_secret: [t.merchantCredentials.clientSecret],
    clientId: [t.partnerCredentials.clientId],
    clientSecret: [t.partnerCredentials.clientSecret],
  };
  if (group === 'banking') {
    return {
      ...common,
      id: [t.ids.business],
      businessId: [t.ids.business],
      accountId: [t.ids.account, t.ids.reserveAccount],
      toAccountId: [t.ids.reserveAccount, t.ids.account],
      counterpartyId: [t.ids.achCounterparty, t.ids.abaCounterparty, t.ids.bicCounterparty],
      fundingAccountNumber: [t.accountNumbers.operating],
      transferId: [t.ids.transfer],
      verificationId: [t.ids.verification, t.ids.documentVerification],
    };
  }
  if (partner) {
    return {
      ...common,
      merchantId: [t.merchantId],
      MerchantId: [t.merchantId],
      customerId: [t.merchantId],
      partnerId: [t.partnerId],
      PartnerId: [t.partnerId],
      payeeId: payees,
      counterpartyId: payees,
      // Each group its own payment: a return simulated in one group must leave the other's still `completed`.
      paymentId: group === 'partner' ? [t.ids.partnerPayment, String(t.ids.partnerPayment)] : [t.ids.counterpartyPayment],
      // The partner's webhook registration and its events (one operation set in C and E).
      id: [t.ids.partnerWebhook],
      eventId: [t.ids.partnerEvent],
    };
  }
  return {
    ...common,
    id: [...payees, t.ids.webhook],
    PayeeId: payees,
    account_id: [t.ids.payeeAccount, t.ids.ibanAccount],
    PayeeAccountId: [t.ids.payeeAccount, t.ids.ibanAccount],
    PayoutUniqueReference: [t.ids.payout],
    eventId: [t.ids.event],
  };
}

/** A value satisfying one property's schema, as far as a generator can tell; Ajv has the last word. */
export function valueFor(group: Group, node: Json, depth = 0): fc.Arbitrary<unknown> {
  const doc = bundles[group];
  const s = resolve(doc, node) as Json;
  if (!s || depth > 3) return fc.constant(undefined);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const choices: fc.Arbitrary<unknown>[] = [];
  if (types.includes('null')) choices.push(fc.constant(null));
  if (types.includes('boolean')) choices.push(fc.boolean());
  if (types.includes('integer')) {
    const min = Math.max(s.minimum ?? -1e6, -Number.MAX_SAFE_INTEGER);
    const max = Math.min(s.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
    choices.push(fc.oneof(fc.constantFrom(min, max), fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) })));
  }
  if (types.includes('number')) {
    const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 0.01 : (s.minimum ?? 0);
    const max = s.maximum ?? 1_000_000;
    // Money: whole cents mostly (the server refuses more decimals than the currency has, as a business rule).
    choices.push(fc.integer({ min: Math.ceil(min * 100), max: Math.floor(Math.min(max, 1e9) * 100) }).map((c) => c / 100));
    choices.push(fc.double({ min, max: Math.min(max, 1e9), noNaN: true, noDefaultInfinity: true }));
  }
  if (types.includes('string')) choices.push(stringFor(s));
  if (types.includes('array') && s.items) {
    choices.push(
      fc
        .array(valueFor(group, s.items, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) })
        .map((a) => (s.uniqueItems ? [...new Set(a.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v)) : a)),
    );
  }
  if (types.includes('object') || s.properties)
    choices.push(fc.constant(sample(s as never, { skipReadOnly: true, enablePatterns: true, quiet: true }, doc)));
  return choices.length ? fc.oneof(...choices) : fc.constant(sample(s as never, { skipReadOnly: true, quiet: true }, doc));
}

function stringFor(s: Json): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 64;
  const fits = (v: string) => v.length >= min && v.length <= max;
  switch (s.format) {
    case 'date':
      return fc
        .date({ min: new Date('1900-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc.oneof(
        {
          weight: 2,
          arbitrary: fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
        },
        { weight: 1, arbitrary: leapSecond },
      );
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uuid':
      return fc.uuid();
    case 'uri':
      // Webhook targets: names only, which the fuzzing service resolves to loopback and never delivers to.
      return fc.constantFrom('https://hooks.fuzz.example/payouts', 'https://a.fuzz.example/x?y=1', 'http://hooks.fuzz.example/local');
  }
  // The longest value allowed, where one character repeated makes one: bounds are where bugs live.
  const longest = ['a', '1', 'A']
    .map((c) => c.repeat(max))
    .filter((v) => max <= 5000 && (!s.pattern || new RegExp(s.pattern, 'u').test(v)));
  const edge = longest.length ? [fc.constant(longest[0]!)] : [];
  const astral = astralEverywhere(max).filter(
    (v) => max <= 5000 && [...v].length >= min && (!s.pattern || new RegExp(s.pattern, 'u').test(v)),
  );
  if (astral.length) edge.push(fc.constantFrom(...astral));
  if (typeof s.pattern === 'string') {
    try {
      return fc.oneof(fc.stringMatching(new RegExp(s.pattern)).filter(fits), ...edge);
    } catch {
      // A construct fast-check cannot generate from: the sampled value stands in.
    }
  }
  return fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, 64) }), ...edge);
}

/** RFC 3339 leap seconds, which the contract's `date-time` accepts: the last second of a UTC day, written in UTC
 * or at any offset (`2026-07-01T05:29:60+05:30`), with or without a fraction, in each offset spelling. */
const leapSecond: fc.Arbitrary<string> = fc
  .tuple(
    fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-30'), noInvalidDate: true }),
    fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    fc.constantFrom('', '.5', '.999999'),
    fc.constantFrom('colon', 'plain', 'hours'),
  )
  .map(([day, offset, fraction, spelling]) => {
    const lastMinute = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 23, 59);
    const local = new Date(lastMinute + offset * 60_000).toISOString().slice(0, 16);
    const hours = Math.floor(Math.abs(offset) / 60);
    const minutes = Math.abs(offset) % 60;
    const two = (n: number) => String(n).padStart(2, '0');
    const sign = offset < 0 ? '-' : '+';
    const zone =
      offset === 0 && spelling !== 'hours'
        ? 'Z'
        : spelling === 'colon' || (spelling === 'hours' && minutes !== 0)
          ? `${sign}${two(hours)}:${two(minutes)}`
          : spelling === 'plain'
            ? `${sign}${two(hours)}${two(minutes)}`
            : `${sign}${two(hours)}`;
    return `${local}:60${fraction}${zone}`;
  });

/** Characters outside the BMP (two UTF-16 units each), at every UTF-16 position of either parity: wherever the
 * server cuts text that holds this value (a default account name at 100, an address line of line1, ", " and
 * line2 at 200), whatever precedes it, one of these puts a character across the cut. */
function astralEverywhere(max: number): string[] {
  return [
    '😀'.repeat(max),
    `A${'😀'.repeat(max - 1)}`,
    `${'A'.repeat(Math.min(99, max - 1))}${'𝔘'.repeat(max - Math.min(99, max - 1))}`,
    `${'A'.repeat(Math.min(199, max - 1))}${'𠀀'.repeat(max - Math.min(199, max - 1))}`,
  ].filter((v) => max >= 1 && [...v].length <= max);
}

/** Seeds: the sampler's full and minimal samples and every documented example, those the contract accepts. */
export function seedBodies(o: ServedOperation): unknown[] {
  const doc = bundles[o.group];
  const validate = validatorAt(o.group, o.bodyPointer!);
  const candidates = [
    sample(o.bodySchema as never, { skipReadOnly: true, enablePatterns: true, quiet: true }, doc),
    sample(o.bodySchema as never, { skipReadOnly: true, skipNonRequired: true, enablePatterns: true, quiet: true }, doc),
    sample(o.bodySchema as never, { skipReadOnly: true, quiet: true }, doc),
    ...Object.values(requestExamples(o)),
  ];
  return candidates.filter((c) => validate(c));
}

/** Every property of a body schema, nested objects included, with its path and whether it is required. */
function propertyPaths(group: Group, node: Json, at: string[] = [], depth = 0): { path: string[]; schema: Json; required: boolean }[] {
  const s = resolve(bundles[group], node) as Json;
  if (!s || depth > 3) return [];
  const required = new Set<string>(s.required ?? []);
  return Object.entries<Json>(s.properties ?? {}).flatMap(([name, sub]) => {
    const here = { path: [...at, name], schema: sub, required: required.has(name) };
    const resolved = resolve(bundles[group], sub) as Json;
    return resolved?.properties ? [here, ...propertyPaths(group, resolved, here.path, depth + 1)] : [here];
  });
}

type Mutation = { path: string[]; drop: true } | { path: string[]; value: unknown };

/** A copy of the body with one property (at any depth) dropped or replaced; undefined when its parent is absent. */
function mutated(body: Json, m: Mutation): Json | undefined {
  const copy = structuredClone(body);
  const parent = m.path
    .slice(0, -1)
    .reduce<Json | undefined>((node, key) => (node && typeof node[key] === 'object' && node[key] !== null ? node[key] : undefined), copy);
  if (!parent) return undefined;
  const key = m.path[m.path.length - 1]!;
  if ('drop' in m) delete parent[key];
  else parent[key] = m.value;
  return copy;
}

/** Valid bodies: a seed, mutations that keep it valid, then ids pointed at the tenant's own (mostly). */
export function validBody(o: ServedOperation, pools: Pools): fc.Arbitrary<unknown> {
  const seeds = seedBodies(o);
  if (seeds.length === 0) throw new Error(`${o.group} ${o.operationId}: neither the sampler nor the examples give a valid body`);
  const validate = validatorAt(o.group, o.bodyPointer!);
  const paths = propertyPaths(o.group, o.bodySchema!);
  const mutation: fc.Arbitrary<Mutation | undefined> = paths.length
    ? fc.constantFrom(...paths).chain(({ path, schema, required }) =>
        required
          ? valueFor(o.group, schema).map((value) => ({ path, value }))
          : fc.oneof(
              fc.constant<Mutation>({ path, drop: true }),
              valueFor(o.group, schema).map((value) => ({ path, value })),
            ),
      )
    : fc.constant(undefined);
  const choices = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 9 })), { minLength: 8, maxLength: 8 });
  return fc.tuple(fc.constantFrom(...seeds), fc.array(mutation, { maxLength: 8 }), choices).map(([seed, mutations, picks]) => {
    let body = structuredClone(seed) as Json;
    const keepIfValid = (next: Json | undefined) => {
      if (next && validate(next)) body = next;
    };
    for (const m of mutations) if (m) keepIfValid(mutated(body, m));
    // Ids point at the tenant's own resources 9 times in 10; the rest keep their value (and mostly miss).
    Object.keys(pools).forEach((name, i) => {
      const [pick, keep] = picks[i % picks.length]!;
      const pool = pools[name]!;
      if (name in body && keep !== 0)
        keepIfValid({ ...body, [name]: typeof body[name] === 'string' ? String(pool[pick % pool.length]) : pool[pick % pool.length] });
    });
    return body;
  });
}

/** Valid path, query and header values: from the pools when there is one, else from each schema. */
export function validParameters(o: ServedOperation, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const entries = o.parameters.map((p) => [p.name, parameterValue(o.group, p, pools)] as const);
  return fc.record(Object.fromEntries(entries)) as fc.Arbitrary<Record<string, unknown>>;
}

function parameterValue(group: Group, p: Parameter, pools: Pools): fc.Arbitrary<unknown> {
  const fits = validatorOf(p.schema);
  const pool = (pools[p.name] ?? []).filter((v) => fits(v));
  const own = valueFor(group, p.schema);
  const value = pool.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: own }) : own;
  // Optional parameters are left out half the time.
  return p.required ? value : fc.option(value, { nil: undefined, freq: 2 });
}

/** Whether a parameter value satisfies the parameter's schema. */
export const parameterFits = (p: Parameter, value: unknown): boolean => Boolean(validatorOf(p.schema)(value));
