// One HTTP POST of a webhook: to the address the guard checked (the connection is pinned to it), with a
// short timeout, and never following redirects.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { cutToCodePoints } from '../../platform/text/code-points.js';
import type { ResolvedTarget } from './address-guard.js';

export interface DeliveryResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the answer's body, for the delivery log (responseExcerptLength characters at most); null for none. */
  responseExcerpt: string | null;
}

/** Characters of a receiver's answer the delivery log keeps. */
export const responseExcerptLength = 200;
/** Bytes read for it: enough for 200 characters of any script (at most 4 bytes each); the rest is drained unread. */
const excerptBytes = responseExcerptLength * 4;

/** The first characters of a body as one line of text (control characters and line breaks as spaces), or null. */
export function excerptOf(body: Buffer): string | null {
  const text = body
    .toString('utf8')
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .trim();
  return text === '' ? null : cutToCodePoints(text, responseExcerptLength).trim();
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
    const head: Buffer[] = [];
    let headBytes = 0;
    const done = (statusCode: number | null, error: string | null) => {
      clearTimeout(deadline);
      resolve({
        statusCode,
        error,
        durationMs: Date.now() - started,
        responseExcerpt: excerptOf(Buffer.concat(head).subarray(0, excerptBytes)),
      });
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
        // The body's first bytes are kept for the delivery log; the rest is drained so the socket is freed.
        response.on('data', (chunk: Buffer) => {
          if (headBytes >= excerptBytes) return;
          head.push(chunk);
          headBytes += chunk.length;
        });
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
