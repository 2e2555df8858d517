// One HTTP POST of a webhook: to the address the guard checked (the connection is pinned to it), with a
// short timeout, and never following redirects.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './address-guard.js';

export interface DeliveryResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export function post(target: ResolvedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<DeliveryResult> {
  const started = Date.now();
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let deadline: NodeJS.Timeout | undefined;
    const done = (statusCode: number | null, error: string | null) => {
      clearTimeout(deadline);
      resolve({ statusCode, error, durationMs: Date.now() - started });
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        timeout: timeoutMs,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': 'payout-service-webhooks/1.0',
          ...headers,
        },
      },
      (response) => {
        response.resume(); // the body is not used; drain it so the socket is freed
        response.on('end', () => done(response.statusCode ?? null, null));
        response.on('error', (err) => done(response.statusCode ?? null, err.message));
      },
    );
    // The socket timeout catches silence; the deadline also catches a receiver that trickles bytes.
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (err) => done(null, err.message));
    request.end(body);
  });
}
