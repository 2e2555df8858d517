// Merchants for tests: provisioned through the same Credentials service the admin CLI uses, then reached
// only through the generated clients over HTTP.
import { createMerchantClient, createPlatformClient, type MerchantClient, type PlatformClient } from '../../client/create-clients.js';
import type { RunningService } from './service.js';

export interface TestMerchant {
  merchantId: number;
  clientId: string;
  clientSecret: string;
  a: MerchantClient;
  b: PlatformClient;
}

export async function newMerchant(service: RunningService, name = 'Acme'): Promise<TestMerchant> {
  const credentials = await service.services.credentials.createMerchant(name);
  const options = { credentials: { clientId: credentials.clientId, clientSecret: credentials.clientSecret } };
  return {
    ...credentials,
    a: createMerchantClient({ baseUrl: service.baseUrl, ...options }),
    b: createPlatformClient({ baseUrl: `${service.baseUrl}/payouts`, authUrl: service.baseUrl, ...options }),
  };
}

export const address = { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' };
export const individual = { payeeType: 'individual' as const, name: 'Maria Gonzalez', EmailAddress: 'maria@example.com', address };
export const business = {
  payeeType: 'business' as const,
  name: 'Northwind LLC',
  EmailAddress: 'ap@northwind.example',
  taxId: '12-3456789',
  phoneNumber: '+13125550198',
  address,
};
export const bankAccount = (accountNumber = '000123456789') => ({
  type: 'BANK_ACCOUNT' as const,
  accountHolderName: 'Maria Gonzalez',
  bankName: 'First Hudson Bank',
  routingNumber: '021000021',
  accountNumber,
  accountType: 'CHECKINGS' as const,
  Currency: 'USD',
});
