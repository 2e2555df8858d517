// scripts/contract/compatibility-policy.ts through compareDocuments, on the platform bundle and a copy changed in one
// place: each rule where the policy departs from api-smart-diff's own classification (test/conformance/diff.test.ts
// runs `npm run diff` itself over one case per policy line).
import { describe, expect, it } from 'vitest';
import { compareDocuments } from '../../scripts/contract/breaking-changes.js';
import { bundles, type Json } from '../support/contract.js';

const base = bundles.platform;
const open = { $ref: '#/components/schemas/OpenEnumValue' };

/** The kinds of the changes a one-place edit makes, at the location it names. */
function kindsAfter(change: (doc: Json) => void, at: RegExp, start: (doc: Json) => void = () => {}): string[] {
  const before = structuredClone(base);
  start(before);
  const after = structuredClone(before);
  change(after);
  const { changes } = compareDocuments(before, after);
  const found = changes.filter((c) => at.test(c.location));
  if (found.length === 0) throw new Error(`no change at ${at}: ${changes.map((c) => c.location).join('; ')}`);
  return [...new Set(found.map((c) => c.type))];
}

const schemas = (doc: Json) => doc.components.schemas;

describe('the compatibility policy', () => {
  it('a value added to an open response enumeration is non-breaking, to a closed one breaking', () => {
    expect(kindsAfter((d) => schemas(d).PayoutRail.enum.push('RTP'), /response 200 .*rail anyOf\[0\] enum/)).toEqual(['non-breaking']);
    expect(kindsAfter((d) => schemas(d).TokenResponse.properties.token_type.enum.push('DPoP'), /token_type enum/)).toEqual(['breaking']);
  });

  it('an open enumeration with its siblings (description, example) grows without breaking', () => {
    const grow = (d: Json) => schemas(d).FeeItem.properties.type.anyOf[0].enum.push('tiered');
    expect(kindsAfter(grow, /type anyOf\[0\].* enum/)).toEqual(['non-breaking']);
  });

  it('making an enumeration open, or closing an open one, is breaking', () => {
    const openTokenType = (d: Json) => {
      const { enum: values, ...rest } = schemas(d).TokenResponse.properties.token_type;
      schemas(d).TokenResponse.properties.token_type = { description: rest.description, anyOf: [{ type: 'string', enum: values }, open] };
    };
    expect(kindsAfter(openTokenType, /token_type anyOf\[1\]$/)).toEqual(['breaking']);
    const closeRail = (d: Json) => {
      schemas(d).FeeCalculation.properties.rail = { $ref: '#/components/schemas/PayoutRail' };
    };
    expect(kindsAfter(closeRail, /rail anyOf\[1\]$/)).toEqual(['breaking']);
  });

  it('opening a response object is non-breaking, closing one breaking', () => {
    const close = (d: Json) => {
      schemas(d).FeeCalculation.additionalProperties = false;
    };
    expect(kindsAfter(close, /additionalProperties$/)).toEqual(['breaking']);
    expect(kindsAfter((d) => delete schemas(d).FeeCalculation.additionalProperties, /additionalProperties$/, close)).toEqual([
      'non-breaking',
    ]);
  });

  it('a webhook header made required is non-breaking, made optional breaking', () => {
    const header = (required: boolean) => (d: Json) => {
      d.components.parameters['webhook-id'].required = required;
    };
    expect(kindsAfter(header(true), /header webhook-id required/, header(false))).toEqual(['non-breaking']);
    expect(kindsAfter(header(false), /header webhook-id required/, header(true))).toEqual(['breaking']);
  });

  it('a changed type is breaking in a response, and in a request unless it widens', () => {
    const responseType = (d: Json) => {
      schemas(d).FeeCalculation.properties.destinationCountry.type = 'integer';
    };
    expect(kindsAfter(responseType, /response 200 .*destinationCountry type$/)).toEqual(['breaking']);
    const widen = (d: Json) => {
      schemas(d).FeeCalculationRequest.properties.destinationCountry.type = ['string', 'null'];
    };
    expect(kindsAfter(widen, /request body .*destinationCountry/)).not.toContain('breaking');
  });
});
