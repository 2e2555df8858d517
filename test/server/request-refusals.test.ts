// Requests refused at the HTTP edge, each answered with a problem that says what was wrong and what is accepted,
// through raw sockets (fetch cannot send most of them): a body its Content-Encoding does not decode (400), a
// content coding or charset the service does not read (415, with Accept-Encoding for the coding), no Host (400),
// and the absolute-form target a server must accept (routed by its path). Nothing refused is written.
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { individual } from '../support/merchants.js';
import { exchange, type RawAnswer } from '../support/raw-http.js';
import { problemType } from '../support/requests.js';
import { rowCounts } from '../support/row-counts.js';
import { stores } from '../support/stores.js';
import { useService } from '../support/use-service.js';

interface Raw {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Leave the Host header out. */
  noHost?: boolean;
  version?: '1.0' | '1.1';
}

describe.each(stores)('refusals at the HTTP edge, on $name', (kind) => {
  const service = useService(kind, {}, { workers: false });
  let token: string;
  let host: string;
  beforeAll(async () => {
    host = new URL(service.baseUrl).host;
    const m = await service.services.credentials.createMerchant('Acme');
    token = await service.token({ kind: 'merchant', merchantId: m.merchantId });
  });

  const send = ({ method, target, headers = {}, body, noHost, version = '1.1' }: Raw): Promise<RawAnswer> => {
    const all: Record<string, string> = {
      ...(noHost ? {} : { Host: host }),
      Authorization: `Bearer ${token}`,
      Connection: 'close',
      ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
      ...headers,
    };
    const head = `${method} ${target} HTTP/${version}\r\n${Object.entries(all)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
    return exchange(service.baseUrl, head, body);
  };
  const json = { 'Content-Type': 'application/json' };
  const payee = JSON.stringify(individual);

  const undecodable: [string, string, Buffer | string][] = [
    ['gzip, with bytes that are not gzip', 'gzip', 'this is not gzip at all'],
    ['gzip, cut short', 'gzip', gzipSync(payee).subarray(0, 20)],
    ['deflate, with bytes that are not deflate', 'deflate', payee],
    ['br, with bytes that are not brotli', 'br', payee],
  ];
  it.each(undecodable)('a body in %s is a 400 problem saying it could not be decoded', async (_, coding, body) => {
    const before = await rowCounts(service.services.store);
    const a = await send({ method: 'POST', target: '/v1/payees', headers: { ...json, 'Content-Encoding': coding }, body });
    expect(a.status, a.text).toBe(400);
    expect(a.headers['content-type']).toContain('application/problem+json');
    expect(a.body).toMatchObject({ type: problemType('malformed-request'), status: 400 });
    expect(a.body.detail).toBe(`The request body could not be decoded as its Content-Encoding, "${coding}", says.`);
    expect(await rowCounts(service.services.store)).toEqual(before);
  });

  it.each(['br2', 'compress', 'gzip, br', 'x-gzip'])(
    'Content-Encoding %s is a 415 naming it and the codings accepted, with Accept-Encoding',
    async (coding) => {
      const a = await send({ method: 'POST', target: '/v1/payees', headers: { ...json, 'Content-Encoding': coding }, body: payee });
      expect(a.status, a.text).toBe(415);
      expect(a.headers['accept-encoding']).toBe('gzip, deflate, br');
      expect(a.body).toMatchObject({
        type: problemType('unsupported-media-type'),
        detail: `Content-Encoding "${coding}" is not supported: send the body uncompressed or encoded as one of gzip, deflate, br.`,
      });
    },
  );

  it.each([
    ['a JSON body in utf-7', '/v1/payees', 'application/json; charset=utf-7', payee, 'utf-7'],
    ['a JSON body in UTF-16', '/v1/payees', 'application/json; charset=UTF-16', payee, 'utf-16'],
    ['a JSON body in a charset nobody knows', '/v1/payees', 'application/json; charset=klingon', payee, 'klingon'],
    [
      'a form body in ISO-8859-1',
      '/oauth/token',
      'application/x-www-form-urlencoded; charset=iso-8859-1',
      'grant_type=client_credentials',
      'iso-8859-1',
    ],
  ])('%s is a 415 naming the charset', async (_, target, contentType, body, charset) => {
    const before = await rowCounts(service.services.store);
    const a = await send({ method: 'POST', target, headers: { 'Content-Type': contentType }, body });
    expect(a.status, a.text).toBe(415);
    expect(a.body).toMatchObject({
      type: problemType('unsupported-media-type'),
      detail: `The charset "${charset}" is not accepted: send the body in UTF-8 (charset=utf-8, or no charset).`,
    });
    expect(await rowCounts(service.services.store)).toEqual(before);
  });

  it('takes a body in UTF-8 however the charset is spelled, or without one, and a gzip body that is gzip', async () => {
    for (const [contentType, encoding] of [
      ['application/json', undefined],
      ['application/json; charset=utf-8', undefined],
      ['application/json; charset="UTF-8"', undefined],
      ['application/json', 'gzip'],
    ] as const) {
      const a = await send({
        method: 'POST',
        target: '/v1/payees',
        headers: { 'Content-Type': contentType, ...(encoding ? { 'Content-Encoding': encoding } : {}) },
        body: encoding ? gzipSync(payee) : payee,
      });
      expect(a.status, `${contentType} ${encoding}: ${a.text}`).toBe(201);
    }
  });

  it('answers an HTTP/1.1 request without Host, or one with two, with a 400 problem naming the header', async () => {
    for (const [method, target, body] of [
      ['GET', '/v1/webhooks', undefined],
      ['POST', '/v1/payees', payee],
      ['GET', '/nowhere', undefined],
    ] as const) {
      const a = await send({ method, target, headers: body ? json : {}, body, noHost: true });
      expect(a.status, `${method} ${target}: ${a.text}`).toBe(400);
      expect(a.headers['content-type']).toContain('application/problem+json');
      expect(a.body).toMatchObject({
        type: problemType('malformed-request'),
        detail: 'An HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2).',
        errors: [{ header: 'Host', detail: 'is required in HTTP/1.1' }],
      });
    }
    const twice = await exchange(
      service.baseUrl,
      `GET /health HTTP/1.1\r\nHost: ${host}\r\nhost: elsewhere.example\r\nConnection: close\r\n\r\n`,
    );
    expect(twice.status, twice.text).toBe(400);
    expect(twice.body).toMatchObject({ type: problemType('malformed-request'), errors: [{ header: 'Host', detail: 'must be sent once' }] });
    // HTTP/1.0 has no Host requirement.
    expect((await send({ method: 'GET', target: '/health', noHost: true, version: '1.0' })).status).toBe(200);
  });

  it('routes an absolute-form target by its path, as the origin form is (RFC 9112, section 3.2.2)', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/webhooks', undefined],
      ['GET', '/v1/payees/551', undefined],
      ['POST', '/v1/payouts', '{}'],
      ['POST', '/v1/payees', payee],
      ['GET', '/v1/payouts?Limit=0', undefined],
      ['PUT', '/v1/payees/1', undefined],
    ] as const) {
      const origin = await send({ method, target: path, headers: body ? json : {}, body });
      const absolute = await send({ method, target: `http://api.example.com${path}`, headers: body ? json : {}, body });
      const label = `${method} ${path}`;
      expect(absolute.status, `${label}: ${absolute.text}`).toBe(origin.status);
      expect(absolute.body?.type, label).toBe(origin.body?.type);
      expect(absolute.body?.instance, label).toBe(origin.body?.instance);
    }
    // The host comes from the target (a Host header, if any, is ignored), so a target without one has none.
    const hostless = await send({ method: 'GET', target: 'http:///v1/webhooks' });
    expect(hostless.status).toBe(400);
    expect(hostless.body.errors).toEqual([{ header: 'Host', detail: 'is required in HTTP/1.1' }]);
  });
});
