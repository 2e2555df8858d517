// The client's enumeration lists (generated/<group>/enums.ts) against the generated types: each list's values are
// exactly what its schema's type admits (an open enumeration's type admits any string; its list is a part of it).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  BankingComponents,
  CounterpartyComponents,
  MerchantComponents,
  PartnerComponents,
  PlatformComponents,
} from '../../client/index.js';
import { type bankingEnums, type counterpartyEnums, merchantEnums, type partnerEnums, type platformEnums } from '../../client/index.js';

/** `true` for each list whose values are its schema's type: all of them, or, for an open enumeration, a part of it. */
type Agrees<Lists, Schemas> = {
  [K in keyof Lists]: K extends keyof Schemas
    ? Lists[K] extends readonly (infer V)[]
      ? [V] extends [Schemas[K]]
        ? string extends Schemas[K]
          ? true
          : [Schemas[K]] extends [V]
            ? true
            : false
        : false
      : false
    : false;
};
type AllTrue<Lists> = { [K in keyof Lists]: true };

describe('the enumeration lists', () => {
  it('hold exactly the values of their schemas’ types', () => {
    expectTypeOf<Agrees<typeof merchantEnums, MerchantComponents['schemas']>>().toEqualTypeOf<AllTrue<typeof merchantEnums>>();
    expectTypeOf<Agrees<typeof platformEnums, PlatformComponents['schemas']>>().toEqualTypeOf<AllTrue<typeof platformEnums>>();
    expectTypeOf<Agrees<typeof partnerEnums, PartnerComponents['schemas']>>().toEqualTypeOf<AllTrue<typeof partnerEnums>>();
    expectTypeOf<Agrees<typeof bankingEnums, BankingComponents['schemas']>>().toEqualTypeOf<AllTrue<typeof bankingEnums>>();
    expectTypeOf<Agrees<typeof counterpartyEnums, CounterpartyComponents['schemas']>>().toEqualTypeOf<AllTrue<typeof counterpartyEnums>>();
  });

  it('keep their literals', () => {
    expectTypeOf(merchantEnums.WebhookEventType[0]).toEqualTypeOf<'payout.created'>();
    expectTypeOf<(typeof partnerEnums.PartnerWebhookEventType)[number]>().toEqualTypeOf<
      PartnerComponents['schemas']['PartnerWebhookEventType']
    >();
  });
});
