// The same client program (client-program.ts) against the real service and against both modes of the mock: the
// mock must answer it with the statuses, problem types and fields the service gives, and with bodies of the
// documented shapes, so that what an integrator builds against the mock works unchanged against the service.
// What the mock cannot imitate (state, unknown ids, conflicts...) is left out here and listed in README.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { suitePortRange } from '../support/ports.js';
import { startMocks, type RunningMocks } from '../../scripts/mock/servers.js';
import { newMerchant } from '../support/merchants.js';
import { startService, type RunningService } from '../support/service.js';
import { stores } from '../support/stores.js';
import { loopbackResolver } from '../support/tenant.js';
import { exampleCredentials } from './group-clients.js';
import { runClientProgram, type ProgramResult } from './client-program.js';

const services: { name: string; result: ProgramResult }[] = [];

describe.each(stores)('the client program against the service on $name', (store) => {
  let service: RunningService | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await store.fresh();
    drop = fresh.drop;
    // Webhook addresses resolve to this machine, as in the service's own suites.
    service = await startService(fresh.url, {}, { resolve: loopbackResolver });
  });
  afterAll(async () => {
    await service?.stop();
    await drop?.();
  });

  it('runs, with every body as documented', async () => {
    const merchant = await newMerchant(service!);
    const result = await runClientProgram(service!.baseUrl, { clientId: merchant.clientId, clientSecret: merchant.clientSecret });
    expect(result.invalid).toEqual([]);
    expect(result.events).toBeGreaterThan(0);
    services.push({ name: store.name, result });
  });
});

describe.each([
  ['static', false],
  ['dynamic', true],
] as const)('the client program against the %s mock', (_mode, dynamic) => {
  let mocks: RunningMocks | undefined;
  beforeAll(async () => {
    mocks = await startMocks({ portBase: await suitePortRange(groups.length, dynamic ? 5600 : 5700, 6500), dynamic });
  }, 120_000);
  afterAll(async () => {
    await mocks?.stop();
  });

  // Dynamic answers differ at every run: three runs, each of which must hold.
  it.each(dynamic ? [1, 2, 3] : [1])('run %i gets what the service answers', async () => {
    const result = await runClientProgram(mocks!.urls.merchant, exampleCredentials('merchant'));
    expect(result.invalid).toEqual([]);
    expect(services.length, 'the service runs first').toBeGreaterThan(0);
    for (const service of services) expect(result.transcript, `as the service on ${service.name}`).toEqual(service.result.transcript);
  });
});
