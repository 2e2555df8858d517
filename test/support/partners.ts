// Partners for tests: provisioned and linked through the Credentials service the admin CLI uses, then
// reached only through the generated clients, which fetch their tokens from the partner token operations.
import { createCounterpartyClient, createPartnerClient, type CounterpartyClient, type PartnerClient } from '../../client/create-clients.js';
import { bundles, resolve } from './contract.js';
import type { RunningService } from './service.js';

export interface TestPartner {
  partnerId: number;
  clientId: string;
  clientSecret: string;
  c: PartnerClient;
  e: CounterpartyClient;
}

export async function newPartner(service: RunningService, merchantIds: number[], name = 'Partner'): Promise<TestPartner> {
  const credentials = await service.services.credentials.createPartner(name);
  for (const merchantId of merchantIds) await service.services.credentials.link(credentials.partnerId, merchantId);
  const options = { baseUrl: service.baseUrl, credentials: { clientId: credentials.clientId, clientSecret: credentials.clientSecret } };
  return { ...credentials, c: createPartnerClient(options), e: createCounterpartyClient(options) };
}

/** The first request example the contract documents for an operation: a valid body by construction. */
export function documentedRequest<T = Record<string, any>>(group: 'partner' | 'counterparty', path: string, exampleName?: string): T {
  const doc = bundles[group];
  const op = resolve(doc, doc.paths[path]).post;
  const examples = resolve(doc, op.requestBody).content['application/json'].examples;
  const chosen = exampleName ? examples[exampleName] : Object.values<any>(examples)[0];
  return structuredClone(resolve(doc, chosen).value) as T;
}
