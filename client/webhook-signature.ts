// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// `${webhook-id}.${webhook-timestamp}.${body}` with the secret after `whsec_`, base64-decoded.
// Web Crypto, so it runs in Node 20+, browsers, Deno and workers. The server signs with the reference library
// (standardwebhooks); test/server/webhooks.test.ts verifies its deliveries with this code.
const encoder = new TextEncoder();

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const raw = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  return Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
}

async function hmac(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(content)));
  return btoa(String.fromCharCode(...mac));
}

/** The `webhook-signature` header value for a delivery. */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  return `v1,${await hmac(secret, `${id}.${timestamp}.${body}`)}`;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Throws WebhookVerificationError unless one of the header's signatures matches and the timestamp is recent. */
export async function verifyWebhook(
  secret: string,
  headers: { id?: string | null; timestamp?: string | null; signature?: string | null },
  body: string,
  options: { toleranceSeconds?: number; now?: () => number } = {},
): Promise<void> {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature)
    throw new WebhookVerificationError('The delivery has no webhook-id, webhook-timestamp or webhook-signature header.');
  const sent = Number(timestamp);
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (!Number.isInteger(sent) || Math.abs(now - sent) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("The delivery's timestamp is too old or too far in the future.");
  }
  const expected = await signWebhook(secret, id, sent, body);
  if (!signature.split(' ').some((candidate) => timingSafeEqual(candidate, expected))) {
    throw new WebhookVerificationError('No signature of the delivery matches the secret.');
  }
}
