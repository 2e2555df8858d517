// Idempotency keys for creates: every operation whose contract takes an `Idempotency-Key` header gets a fresh
// random key unless the caller gave one, so that a retry (the client's own, or the caller's with the same key)
// cannot create twice. Which operations take one is listed below per group, and the compiler holds each list to
// its group's generated types: an operation gaining or losing the header fails to compile until listed.
import type { Middleware } from 'openapi-fetch';
import type { paths as BankingPaths } from '../generated/banking/schema.js';
import type { paths as CounterpartyPaths } from '../generated/counterparty/schema.js';
import type { paths as MerchantPaths } from '../generated/merchant/schema.js';
import type { paths as PartnerPaths } from '../generated/partner/schema.js';
import type { paths as PlatformPaths } from '../generated/platform/schema.js';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type TakesKey<Operation> = Operation extends { parameters: { header?: infer Header } }
  ? [NonNullable<Header>] extends [never]
    ? false
    : 'Idempotency-Key' extends keyof NonNullable<Header>
      ? true
      : false
  : false;

/** `POST /v1/payees`: every operation of `Paths` whose header parameters include Idempotency-Key. */
export type KeyedOperation<Paths> = {
  [Path in keyof Paths & string]: {
    [M in keyof Paths[Path] & Method]: TakesKey<Paths[Path][M]> extends true ? `${Uppercase<M>} ${Path}` : never;
  }[keyof Paths[Path] & Method];
}[keyof Paths & string];

/** The list as a set, when it names every keyed operation of `Paths` (and, by its element type, only those). */
const everyKeyed =
  <Paths>() =>
  <const List extends readonly KeyedOperation<Paths>[]>(
    list: List &
      ([Exclude<KeyedOperation<Paths>, List[number]>] extends [never]
        ? unknown
        : { missing: Exclude<KeyedOperation<Paths>, List[number]> }),
  ): ReadonlySet<string> =>
    new Set(list);

export const keyedOperations = {
  merchant: everyKeyed<MerchantPaths>()(['POST /v1/payees', 'POST /v1/payees/{id}/accounts', 'POST /v1/payouts', 'POST /v1/webhooks']),
  platform: everyKeyed<PlatformPaths>()(['POST /v1/payees/Create', 'POST /v1/payouts']),
  partner: everyKeyed<PartnerPaths>()([
    'POST /finance/v1/recipient-ach',
    'POST /finance/v1/recipient-wire',
    'POST /finance/v1/payment_request',
    'POST /finance/v1/webhooks',
  ]),
  banking: everyKeyed<BankingPaths>()([
    'POST /finance/api/v1/business',
    'POST /finance/api/v1/identity-verification',
    'POST /finance/api/v1/counterparty',
    'POST /finance/api/v1/account/{businessId}',
    'POST /finance/api/v1/transaction/ach/pull',
    'POST /finance/api/v1/transaction/ach/push',
    'POST /finance/api/v1/transaction/wire/domestic',
    'POST /finance/api/v1/transaction/wire/international',
    'POST /finance/api/v1/transaction/internal/transfer',
    'POST /finance/api/v1/simulations/inbound-transfer',
  ]),
  counterparty: everyKeyed<CounterpartyPaths>()([
    'POST /finance/v1/payee',
    'POST /finance/v1/payment_request',
    'POST /finance/v1/webhooks',
  ]),
};

/** A new key: a random UUID, as the contract advises. */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/** openapi-fetch middleware: adds a fresh Idempotency-Key to a keyed operation's request that has none. */
export function idempotencyKeys(keyed: ReadonlySet<string>): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (!keyed.has(`${request.method} ${schemaPath}`) || request.headers.has('Idempotency-Key')) return undefined;
      const headers = new Headers(request.headers);
      headers.set('Idempotency-Key', newIdempotencyKey());
      return new Request(request, { headers });
    },
  };
}
