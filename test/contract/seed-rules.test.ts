// Each rule and limit of the seed, checked against the schema a validator enforces: the valid case passes and
// each violation fails. Schemas are taken from the bundles, so this is what the server and Prism enforce.
import { describe, expect, it } from 'vitest';
import type { Group } from '../../generated/index.js';
import { bundles, resolve, validatorAt } from '../support/contract.js';

type Case = [title: string, value: unknown, valid: boolean];
const schema = (group: Group, name: string) => validatorAt(group, `#/components/schemas/${name}`);
const x = (n: number) => 'x'.repeat(n);
const with_ = (base: Record<string, unknown>, patch: Record<string, unknown>) => ({ ...base, ...patch });
const without = (base: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(base).filter(([k]) => !keys.includes(k)));

function check(group: Group, name: string, cases: Case[]) {
  describe(`${group} ${name}`, () => {
    it.each(cases)('%s', (_, value, valid) => {
      const validate = schema(group, name);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(valid);
    });
  });
}

const address = { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' };
const individual = { payeeType: 'individual', name: 'Maria Gonzalez', EmailAddress: 'maria@example.com', address };
const business = {
  payeeType: 'business',
  name: 'Northwind LLC',
  EmailAddress: 'ap@northwind.example',
  taxId: '12-3456789',
  phoneNumber: '+13125550198',
  address,
};

for (const group of ['merchant', 'platform'] as const) {
  check(group, 'PayeeCreateRequest', [
    ['a valid individual payee passes', individual, true],
    ['an individual needs no phone number or tax id', with_(individual, { phoneNumber: null, taxId: null }), true],
    ['a valid business payee passes', business, true],
    ['a business payee without taxId fails', without(business, 'taxId'), false],
    ['a business payee with a null taxId fails', with_(business, { taxId: null }), false],
    ['a business payee without phoneNumber fails', without(business, 'phoneNumber'), false],
    ['a business payee with a null phoneNumber fails', with_(business, { phoneNumber: null }), false],
    ['payeeType is required', without(individual, 'payeeType'), false],
    ['payeeType is individual or business', with_(individual, { payeeType: 'company' }), false],
    ['name is required', without(individual, 'name'), false],
    ['a 100-character name passes', with_(individual, { name: x(100) }), true],
    ['a 101-character name fails', with_(individual, { name: x(101) }), false],
    ['EmailAddress is required', without(individual, 'EmailAddress'), false],
    ['an empty EmailAddress fails', with_(individual, { EmailAddress: '' }), false],
    ['a 50-character taxId passes', with_(business, { taxId: `A${x(49)}` }), true],
    ['a 51-character taxId fails', with_(business, { taxId: `A${x(50)}` }), false],
    ['a 50-character idType passes', with_(individual, { idType: x(50) }), true],
    ['a 51-character idType fails', with_(individual, { idType: x(51) }), false],
    ['address is required', without(individual, 'address'), false],
    ['every address field is required', with_(individual, { address: without(address, 'postalCode') }), false],
    ['a 200-character address line passes', with_(individual, { address: with_(address, { addressLine: x(200) }) }), true],
    ['a 201-character address line fails', with_(individual, { address: with_(address, { addressLine: x(201) }) }), false],
    ['a 101-character state fails', with_(individual, { address: with_(address, { state: x(101) }) }), false],
    ['a 101-character city fails', with_(individual, { address: with_(address, { city: x(101) }) }), false],
    ['a 101-character country fails', with_(individual, { address: with_(address, { country: x(101) }) }), false],
    ['a 20-character postal code passes', with_(individual, { address: with_(address, { postalCode: x(20) }) }), true],
    ['a 21-character postal code fails', with_(individual, { address: with_(address, { postalCode: x(21) }) }), false],
    ['dateOfBirth is a date', with_(individual, { dateOfBirth: '1988-04-17' }), true],
    ['dateOfBirth in another format fails', with_(individual, { dateOfBirth: '17/04/1988' }), false],
    ['an unknown field fails', with_(individual, { MerchantId: 7 }), false],
  ]);

  check(group, 'PayoutCreateRequest', [
    ['a valid payout passes', { PayeeId: 4821, Amount: 1250, Currency: 'USD', Description: 'Commission' }, true],
    ['Description is optional', { PayeeId: 4821, Amount: 0.01, Currency: 'USD' }, true],
    ['PayeeId is required', { Amount: 10, Currency: 'USD' }, false],
    ['Amount is required', { PayeeId: 1, Currency: 'USD' }, false],
    ['Amount must be positive', { PayeeId: 1, Amount: 0, Currency: 'USD' }, false],
    ['Currency is required', { PayeeId: 1, Amount: 10 }, false],
    ['Currency is a 3-letter code', { PayeeId: 1, Amount: 10, Currency: 'US' }, false],
    ['Currency is upper case', { PayeeId: 1, Amount: 10, Currency: 'usd' }, false],
    ['the merchant is never sent', { PayeeId: 1, Amount: 10, Currency: 'USD', MerchantId: 2 }, false],
    ['a 501-character description fails', { PayeeId: 1, Amount: 10, Currency: 'USD', Description: x(501) }, false],
  ]);
}

const bank = {
  type: 'BANK_ACCOUNT',
  accountHolderName: 'Maria Gonzalez',
  bankName: 'First Hudson Bank',
  routingNumber: '021000021',
  accountNumber: '000123456789',
  accountType: 'CHECKINGS',
};
const iban = { type: 'IBAN', accountHolderName: null, IBAN: 'DE89370400440532013000' };
check('merchant', 'PayeeAccountRequest', [
  ['a complete bank account passes', bank, true],
  ...['accountHolderName', 'bankName', 'routingNumber', 'accountNumber', 'accountType'].flatMap((field): Case[] => [
    [`a BANK_ACCOUNT without ${field} fails`, without(bank, field), false],
    [`a BANK_ACCOUNT with a null ${field} fails`, with_(bank, { [field]: null }), false],
  ]),
  ['accountType is CHECKINGS or SAVINGS', with_(bank, { accountType: 'CURRENT' }), false],
  ['an IBAN account passes', iban, true],
  ['an IBAN account without IBAN fails', without(iban, 'IBAN'), false],
  ['an IBAN account with a null IBAN fails', with_(iban, { IBAN: null }), false],
  ['type is required', without(bank, 'type'), false],
  ['type is BANK_ACCOUNT or IBAN', with_(bank, { type: 'CARD' }), false],
  ['accountHolderName is always sent', without(iban, 'accountHolderName'), false],
  ['an unknown field fails', with_(bank, { active: false }), false],
]);

check('merchant', 'WebhookCreateRequest', [
  ['a url alone passes', { url: 'https://hooks.example.com/payouts' }, true],
  [
    'events and environment can be chosen',
    { url: 'https://hooks.example.com/p', events: ['payout.completed'], environment: 'production', signed: true },
    true,
  ],
  ['url is required', { events: ['payout.completed'] }, false],
  ['url cannot be null', { url: null }, false],
  ['an unknown event fails', { url: 'https://hooks.example.com/p', events: ['payout.refunded'] }, false],
  ['environment is sandbox or production', { url: 'https://hooks.example.com/p', environment: 'staging' }, false],
]);

check('merchant', 'PayeeAccount', [
  [
    'the account number shows at most its last 4 digits',
    {
      payeeId: 1,
      payeeAccountId: 'pa_01jd8w5c2b9x7z3y1v8t6r4q2p',
      type: 'BANK_ACCOUNT',
      accountHolderName: 'M',
      bankName: 'B',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      bankClearingSystemCode: null,
      branchTransitNumber: null,
      IBAN: null,
      Currency: 'USD',
      accountType: 'CHECKINGS',
      accountTypeId: 1,
      active: true,
      createdOn: '2026-11-02T14:04:02.311Z',
    },
    false,
  ],
]);

check('platform', 'FeeCalculationRequest', [
  ['destination country, currency, rail and amount pass', { destinationCountry: 'GB', currency: 'GBP', rail: 'SWIFT', amount: 1000 }, true],
  ['the rail is required', { destinationCountry: 'GB', currency: 'GBP', amount: 1000 }, false],
  ['an unknown rail fails', { destinationCountry: 'GB', currency: 'GBP', rail: 'CARRIER_PIGEON', amount: 1000 }, false],
]);

// Groups C, D and E: the valid base of each case is the operation's own first request example.
function requestExample(group: Group, path: string): Record<string, unknown> {
  const doc = bundles[group];
  const op = resolve(doc, doc.paths[path]).post;
  const media = resolve(doc, op.requestBody).content['application/json'];
  const first = Object.values<any>(media.examples)[0];
  return structuredClone(resolve(doc, first).value);
}

const payment = requestExample('partner', '/finance/v1/payment_request');
for (const group of ['partner', 'counterparty'] as const) {
  check(group, 'PaymentRequest', [
    ['the documented payment request passes', payment, true],
    ['paymentMethodType is required', without(payment, 'paymentMethodType'), false],
    ...['STANDARD', 'SAME_DAY', 'DOMESTIC_WIRE', 'INTERNATIONAL_WIR'].map(
      (m): Case => [`paymentMethodType ${m} passes (seed spelling)`, with_(payment, { paymentMethodType: m }), true],
    ),
    ['an unknown paymentMethodType fails', with_(payment, { paymentMethodType: 'CHEQUE' }), false],
    ['description is required', without(payment, 'description'), false],
    ['a 500-character description passes', with_(payment, { description: x(500) }), true],
    ['a 501-character description fails', with_(payment, { description: x(501) }), false],
    ['merchantId is required', without(payment, 'merchantId'), false],
    ['merchantId is an integer', with_(payment, { merchantId: '7' }), false],
    ['partnerId is an integer', with_(payment, { partnerId: 'p-1' }), false],
    ['payeeId is an integer', with_(payment, { payeeId: 1.5 }), false],
    ['an unknown field fails', with_(payment, { status: 'completed' }), false],
  ]);
}

const ach = requestExample('partner', '/finance/v1/recipient-ach');
const wire = requestExample('partner', '/finance/v1/recipient-wire');
const wireDetails = wire.wire as Record<string, unknown>;
check('partner', 'AchRecipientRequest', [
  ['the documented ACH recipient passes', ach, true],
  ['the ach object is required', without(ach, 'ach'), false],
  ['merchantId is required', without(ach, 'merchantId'), false],
  ['type INDIVIDUAL passes', with_(ach, { type: 'INDIVIDUAL', phone: null }), true],
  [
    'bankAccountType CHECKING passes',
    with_(ach, { ach: with_(ach.ach as object as Record<string, unknown>, { bankAccountType: 'CHECKING' }) }),
    true,
  ],
  [
    'an unknown bankAccountType fails',
    with_(ach, { ach: with_(ach.ach as object as Record<string, unknown>, { bankAccountType: 'BROKERAGE' }) }),
    false,
  ],
  [
    'a routing number that is not 9 digits fails',
    with_(ach, { ach: with_(ach.ach as object as Record<string, unknown>, { routingNumber: '12345' }) }),
    false,
  ],
  ['address type RESIDENCE passes', ach, true],
]);
check('partner', 'WireRecipientRequest', [
  ['the documented wire recipient passes', wire, true],
  ['paymentMethodType is required', without(wire, 'paymentMethodType'), false],
  ['paymentMethodType is DOMESTIC_WIRE or INTERNATIONAL_WIRE', with_(wire, { paymentMethodType: 'STANDARD' }), false],
  ['beneficiaryFIIdType is required', with_(wire, { wire: without(wireDetails, 'beneficiaryFIIdType') }), false],
  ['beneficiaryFIIdType is ABA or BIC', with_(wire, { wire: with_(wireDetails, { beneficiaryFIIdType: 'SWIFT' }) }), false],
  [
    'an international wire with a BIC passes',
    with_(wire, {
      paymentMethodType: 'INTERNATIONAL_WIRE',
      wire: with_(wireDetails, { type: 'INTERNATIONAL', beneficiaryFIIdType: 'BIC', receiverRoutingNumber: 'DEUTDEFF500' }),
    }),
    true,
  ],
  [
    'a BIC of the wrong form fails',
    with_(wire, {
      paymentMethodType: 'INTERNATIONAL_WIRE',
      wire: with_(wireDetails, { type: 'INTERNATIONAL', beneficiaryFIIdType: 'BIC', receiverRoutingNumber: 'DEUT' }),
    }),
    false,
  ],
  [
    'a domestic wire cannot name its bank by BIC',
    with_(wire, {
      paymentMethodType: 'DOMESTIC_WIRE',
      wire: with_(wireDetails, { beneficiaryFIIdType: 'BIC', receiverRoutingNumber: 'DEUTDEFF500' }),
    }),
    false,
  ],
]);

const counterparty = requestExample('counterparty', '/finance/v1/payee');
check('counterparty', 'CounterpartyCreateRequest', [
  ['the documented counterparty passes', counterparty, true],
  ['PaymentMethodType STANDARD passes', with_(counterparty, { PaymentMethodType: 'STANDARD' }), true],
  ['an unknown PaymentMethodType fails', with_(counterparty, { PaymentMethodType: 'CARD' }), false],
  ['an unknown field fails', with_(counterparty, { partnerSecret: 'x' }), false],
]);

const account = requestExample('banking', '/finance/api/v1/account/{businessId}');
check('banking', 'AccountCreateRequest', [
  ['the documented account passes', account, true],
  ['each field may be null', { accountName: null, accountType: null, fundingAccountNumber: null, presetAccountNumber: null }, true],
  ['an unknown field fails', with_(account, { balance: '100.00' }), false],
]);
const transfer = requestExample('banking', '/finance/api/v1/transaction/internal/transfer');
check('banking', 'InternalTransferRequest', [
  ['the documented transfer passes', transfer, true],
  ['amount is required', without(transfer, 'amount'), false],
  ['amount must be positive', with_(transfer, { amount: -5 }), false],
]);
