// Log redaction (server/platform/log.ts) writes the lines pino's own `redact` writes with the same paths: each field
// table below is logged through both, as a line's fields and as a child's bindings, and the lines must be equal
// but for the time. The logged objects are left as they were.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, redactedPaths } from '../../server/platform/log.js';

function capture(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

const withoutTime = (line: string) => {
  const { time: _time, ...rest } = JSON.parse(line);
  return rest;
};

const secretError = Object.assign(new Error('the store refused'), { secret: 's3cr3t', code: 'E1' });
const headerError = Object.assign(new Error('the receiver refused'), { headers: { authorization: 'Bearer t0k3n', accept: '*/*' } });

const cases: [string, Record<string, unknown>][] = [
  ['nothing secret', { requestId: 'req_1', method: 'GET', path: '/v1/payees/1', status: 200, ms: 1.25 }],
  ['top-level secrets', { secret: 'sk_top_a', client_secret: 'sk_top_b', clientSecret: 'sk_top_c', access_token: 'at_top_d', other: 'e' }],
  [
    'nested secrets',
    { body: { client_secret: 'sk_nested_b', grant_type: 'client_credentials' }, token: { access_token: 'at_nested_d', expires_in: 900 } },
  ],
  ['a request with its authorization', { req: { method: 'GET', headers: { authorization: 'Bearer x', host: 'h' } } }],
  ['headers under any field', { delivery: { headers: { authorization: 'Bearer y' }, url: 'https://r.example' } }],
  ['deeper than the paths reach', { a: { b: { secret: 'kept, as pino keeps it' } } }],
  ['arrays and nulls', { list: [{ secret: 'in an array' }], none: null, headers: { authorization: 'top-level headers' } }],
  ['an error with a secret', { err: secretError }],
  ['an error with headers', { err: headerError }],
  ['numbers and booleans', { secret: 1, ok: true, n: { secret: false } }],
];

describe('log redaction', () => {
  for (const [name, fields] of cases) {
    it(`writes what pino's redact writes: ${name}`, () => {
      const ours = capture();
      const theirs = capture();
      const oursLog = createLogger('info', ours.stream);
      const theirsLog = pino(
        { level: 'info', redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'payout-service' } },
        theirs.stream,
      );
      const before = JSON.stringify(fields);
      oursLog.info(fields, 'line');
      theirsLog.info(fields, 'line');
      oursLog.child(fields).info('child');
      theirsLog.child(fields).info('child');
      expect(ours.lines.map(withoutTime)).toEqual(theirs.lines.map(withoutTime));
      expect(ours.lines).toHaveLength(2);
      expect(JSON.stringify(fields)).toBe(before);
      expect(secretError.secret).toBe('s3cr3t');
      expect(headerError.headers.authorization).toBe('Bearer t0k3n');
    });
  }

  it('censors every secret of the table', () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    for (const [, fields] of cases) log.info(fields, 'line');
    const all = out.lines.join('\n');
    for (const secret of [
      'sk_top_a',
      'sk_top_b',
      'sk_top_c',
      'at_top_d',
      'sk_nested_b',
      'at_nested_d',
      'Bearer x',
      'Bearer y',
      's3cr3t',
      't0k3n',
      'top-level headers',
    ])
      expect(all).not.toContain(secret);
  });
});
