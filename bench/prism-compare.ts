// Part `prism`: the real service against the Prism mock of the same document, on the same operation
// (GET /v1/payees/{id}) with the same load, one after the other. The mock answers the documented example
// without a store; the aim is that the real server is the faster of the two.
import { startMocks } from '../scripts/mock/servers.js';
import { freePortRange } from '../scripts/mock/free-ports.js';
import { describeLoad, loadSettings, measure, type LoadResult } from './load.js';
import { startService } from './processes.js';
import { createMerchant, provision } from './provision.js';
import { embeddedStore } from './stores.js';

export interface PrismCompareResult {
  operation: string;
  prism: LoadResult;
  service: LoadResult;
  /** service req/s divided by Prism req/s: above 1 when the real server is the faster. */
  ratio: number;
}

export async function runPrismCompare(): Promise<PrismCompareResult> {
  const settings = loadSettings();
  const store = embeddedStore();
  const merchant = await createMerchant(store.url);
  const service = await startService({ DATABASE_URL: store.url, RUN_WORKERS: 'false' });
  let prism: LoadResult;
  try {
    const fixture = await provision(service.url, merchant);
    const auth = { authorization: `Bearer ${fixture.token}` };
    const mocks = await startMocks({ portBase: await freePortRange(5, 20_000, 40_000), front: false });
    try {
      // Prism checks that a bearer token is present, not what it says; the same header serves both.
      prism = await measure({ url: `${mocks.urls.merchant}/v1/payees/${fixture.payeeId}`, headers: auth }, settings);
    } finally {
      await mocks.stop();
    }
    console.log(`  Prism mock    GET /v1/payees/{id}  ${describeLoad(prism)}`);
    const real = await measure({ url: `${service.url}/v1/payees/${fixture.payeeId}`, headers: auth }, settings, service.process.pid);
    console.log(`  real service  GET /v1/payees/{id}  ${describeLoad(real)}`);
    const ratio = real.requestsPerSec / prism.requestsPerSec;
    console.log(`  real / Prism ${ratio.toFixed(2)} (aim > 1)`);
    return { operation: 'GET /v1/payees/{id}', prism, service: real, ratio };
  } finally {
    await service.stop();
    await store.drop();
  }
}
