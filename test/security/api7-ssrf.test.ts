// OWASP API7:2023 Server Side Request Forgery: webhook targets are the one place a caller makes the service
// send a request. On a service that does not allow private targets (the production setting): every
// loopback, private, link-local, cloud-metadata, CGNAT, multicast and reserved address is refused at
// registration (422 naming `url`, nothing stored), in every spelling (decimal, hex, octal, short, trailing
// dot, IPv6, IPv4-mapped, NAT64, 6to4) and behind any name resolving to one (names are resolved by an
// injected resolver, so nothing is looked up outside). At delivery the target is checked again: a name
// that now resolves privately (DNS rebinding) and stored registrations that point inside are refused and
// never contacted. Redirects are never followed.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../server/webhooks/address-guard.js';
import { bankAccount, individual } from '../support/merchants.js';
import { startService, type RunningService } from '../support/service.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { problemType, send } from './requests.js';

const publicAddress = '93.184.216.34';

/** What each name resolves to, as an attacker's DNS would answer. */
const zone: Record<string, { address: string; family: number }[]> = {
  'hooks.public.example': [{ address: publicAddress, family: 4 }],
  localhost: [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }],
  'internal.example': [{ address: '10.0.0.5', family: 4 }],
  'metadata.google.internal': [{ address: '169.254.169.254', family: 4 }],
  'instance-data.example': [{ address: 'fd00:ec2::254', family: 6 }],
  '127.0.0.1.nip.example': [{ address: '127.0.0.1', family: 4 }],
  'v6-loopback.example': [{ address: '::1', family: 6 }],
  'v6-mapped.example': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'mixed.example': [{ address: publicAddress, family: 4 }, { address: '192.168.1.20', family: 4 }],
  'cgnat.example': [{ address: '100.100.100.200', family: 4 }],
};
const zoneResolver: Resolver = async (host) => {
  const answer = zone[host.toLowerCase()];
  if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

const refusedTargets = [
  // Loopback, in every spelling the URL parser accepts.
  'https://127.0.0.1/hook',
  'https://127.0.0.2:8443/hook',
  'https://2130706433/hook',
  'https://0x7f000001/hook',
  'https://0x7f.0.0.1/hook',
  'https://0177.0.0.1/hook',
  'https://017700000001/hook',
  'https://127.1/hook',
  'https://127.0.0.1./hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:7f00:1]/hook',
  'https://[0:0:0:0:0:ffff:7f00:1]/hook',
  'https://[::127.0.0.1]/hook',
  // Private, CGNAT, unspecified, multicast, broadcast and documentation ranges.
  'https://10.0.0.1/hook',
  'https://172.16.5.4/hook',
  'https://172.31.255.255/hook',
  'https://192.168.0.10/hook',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://0/hook',
  'https://224.0.0.1/hook',
  'https://255.255.255.255/hook',
  'https://192.0.2.10/hook',
  'https://[::]/hook',
  'https://[fc00::1]/hook',
  'https://[fd12:3456::1]/hook',
  'https://[ff02::1]/hook',
  // Link-local and the cloud metadata services that live there.
  'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'https://169.254.170.2/v2/credentials',
  'https://2852039166/latest/meta-data/',
  'https://0xa9fea9fe/latest/meta-data/',
  'https://[fe80::1]/hook',
  'https://[fe80::a9fe:a9fe%25eth0]/hook',
  'https://[fd00:ec2::254]/latest/meta-data/',
  'https://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  'https://[2002:a9fe:a9fe::]/latest/meta-data/',
  // Names that resolve inside, including one with a public and a private answer.
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://internal.example/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://instance-data.example/latest/meta-data/',
  'https://127.0.0.1.nip.example/hook',
  'https://v6-loopback.example/hook',
  'https://v6-mapped.example/hook',
  'https://mixed.example/hook',
  'https://cgnat.example/hook',
  // Userinfo tricks: the host is what follows the @.
  'https://hooks.public.example@127.0.0.1/hook',
  'https://127.0.0.1#@hooks.public.example/hook',
];

const badSchemes = ['http://hooks.public.example/hook', 'ftp://hooks.public.example/hook', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'javascript:alert(1)', 'https://user:pass@hooks.public.example/hook', 'https://unresolvable.example/hook'];

describe('registration refuses every target inside (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  let service: RunningService;
  let token: string;
  beforeAll(async () => {
    // No workers: nothing registered here is ever delivered to, not even the public control.
    service = await startService(':memory:', { webhookAllowPrivate: false }, { resolve: zoneResolver, workers: false });
    const m = await service.services.credentials.createMerchant('Acme');
    token = (await service.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
  });
  afterAll(() => service.stop());

  it('accepts the control: an https target whose name resolves to a public address', async () => {
    const r = await send(service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url: 'https://hooks.public.example/hook' } });
    expect(r.status, r.text).toBe(201);
    expect((await send(service.baseUrl, 'DELETE', '/v1/webhooks', { token, query: { id: r.body.id } })).status).toBe(204);
  });

  it.each(refusedTargets)('refuses %s (422 naming url)', async (url) => {
    const r = await send(service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url } });
    expect(r.status, r.text).toBe(422);
    expect(r.body.type).toBe(problemType('business-rule'));
    expect(r.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
  });

  it.each(badSchemes)('refuses %s (4xx naming url)', async (url) => {
    const r = await send(service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url } });
    expect([400, 422], r.text).toContain(r.status);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ pointer: '#/url' }));
  });

  it('stored none of them', async () => {
    expect((await send(service.baseUrl, 'GET', '/v1/webhooks', { token })).body).toEqual([]);
  });
});

/** A TCP server that counts connections: a delivery that got through would show up here, even over TLS. */
async function connectionCounter(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let n = 0;
  const server: TcpServer = createTcpServer((socket) => {
    n += 1;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

async function payout(service: RunningService, merchantId: number) {
  const payee = await service.services.payees.create(merchantId, individual);
  await service.services.accounts.create(merchantId, payee.id, bankAccount());
  return service.services.payouts.create(merchantId, { PayeeId: payee.id, Amount: 10, Currency: 'USD' });
}

async function settledDeliveries(service: RunningService, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await service.services.store.db.selectFrom('webhook_deliveries').selectAll().execute();
    if (rows.length >= count && rows.every((r) => r.outcome !== 'sending')) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries did not settle: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('delivery checks every target again and never connects inside', () => {
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  beforeAll(async () => {
    counter = await connectionCounter();
  });
  afterAll(() => counter.close());

  it('refuses a name that resolved publicly at registration and privately at delivery (DNS rebinding)', async () => {
    let lookups = 0;
    // The first answer (registration) is public; every later one (delivery) is loopback, where the counter listens.
    const rebinding: Resolver = async () => [{ address: lookups++ === 0 ? publicAddress : '127.0.0.1', family: 4 }];
    const service = await startService(':memory:', { webhookAllowPrivate: false }, { resolve: rebinding });
    try {
      const m = await service.services.credentials.createMerchant('Rebound');
      const token = (await service.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
      const r = await send(service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url: `https://rebind.example:${counter.port}/hook`, events: ['payout.created'] } });
      expect(r.status).toBe(201);
      await payout(service, m.merchantId);
      const [record] = await settledDeliveries(service, 1);
      expect(record).toMatchObject({ outcome: 'refused', status_code: null });
      expect(record!.error).toContain('private');
      expect(counter.connections()).toBe(0);
    } finally {
      await service.stop();
    }
  });

  it('refuses registrations stored pointing inside (made while private targets were allowed), in every spelling', async () => {
    const service = await startService(':memory:', { webhookAllowPrivate: false }, { resolve: zoneResolver });
    try {
      const m = await service.services.credentials.createMerchant('Legacy');
      const hosts = ['127.0.0.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost', '127.0.0.1.nip.example'];
      await service.services.store.db
        .insertInto('webhooks')
        .values(hosts.map((host, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, merchant_id: m.merchantId, url: `https://${host}:${counter.port}/hook`, events: '["payout.created"]', environment: 'sandbox' as const, secret: null, created_at: Date.now(), deleted_at: null })))
        .execute();
      await payout(service, m.merchantId);
      const records = await settledDeliveries(service, hosts.length);
      expect(records.map((r) => [r.url, r.outcome])).toEqual(hosts.map((host) => [`https://${host}:${counter.port}/hook`, 'refused']));
      expect(counter.connections()).toBe(0);
    } finally {
      await service.stop();
    }
  });
});

describe('redirects are never followed', () => {
  // Following a redirect would let a public receiver send the service inside; nothing public can be
  // reached from this test, so the receivers are local and the service allows local targets. The
  // redirect rule does not depend on that setting.
  let service: RunningService;
  let target: WebhookReceiver;
  let redirecting: Server;
  let base: string;
  beforeAll(async () => {
    service = await startService(':memory:', { webhookAllowPrivate: true });
    target = await startReceiver();
    redirecting = createServer((req, res) => res.writeHead(Number(req.url!.slice(1)), { location: `${target.url}/stolen` }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    redirecting.close();
    await target.close();
    await service.stop();
  });

  it('records 301, 302, 303, 307 and 308 as failed deliveries and never contacts the Location', async () => {
    const m = await service.services.credentials.createMerchant('Redirected');
    const token = (await service.services.tokens.issue({ kind: 'merchant', merchantId: m.merchantId })).access_token;
    const codes = [301, 302, 303, 307, 308];
    for (const code of codes) expect((await send(service.baseUrl, 'POST', '/v1/webhooks', { token, body: { url: `${base}/${code}`, events: ['payout.created'] } })).status).toBe(201);
    await payout(service, m.merchantId);
    const records = await settledDeliveries(service, codes.length);
    expect(records.map((r) => [r.status_code, r.outcome]).sort()).toEqual(codes.map((c) => [c, 'failed']));
    await new Promise((r) => setTimeout(r, 200));
    expect(target.deliveries).toEqual([]);
  });
});
