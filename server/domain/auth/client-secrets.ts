// Client credentials. A secret is 256 random bits, shown once; the store keeps a salted SHA-256 of it.
// A slow password hash buys nothing for secrets this long (no dictionary to try) and would put a
// deliberate delay on every token request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type ClientKind = 'merchant' | 'partner';

export function newClientId(kind: ClientKind): string {
  return `${kind === 'merchant' ? 'mch' : 'prt'}_cl_${randomBytes(8).toString('hex')}`;
}

export function newClientSecret(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string, salt = randomBytes(16).toString('hex')): string {
  return `sha256$${salt}$${createHash('sha256').update(`${salt}:${secret}`).digest('hex')}`;
}

export function secretMatches(secret: string, stored: string): boolean {
  const [scheme, salt, expected] = stored.split('$');
  if (scheme !== 'sha256' || !salt || !expected) return false;
  const actual = hashSecret(secret, salt).split('$')[2]!;
  return timingSafeEqual(Buffer.from(actual, 'hex'), Buffer.from(expected, 'hex'));
}
