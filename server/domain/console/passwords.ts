// Console users' passwords: scrypt (node:crypto) with a 16-byte salt per user, the cost parameters stored with the
// hash (`scrypt$N$r$p$salt$hash`, base64url), so they can be raised later without breaking stored hashes. Unlike
// client secrets (256 random bits, client-secrets.ts), passwords are chosen by people and guessable offline, so
// they get a slow hash: about 50 ms per check here.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

let cost: { N: number; r: number; p: number } = { N: 2 ** 15, r: 8, p: 1 };

/** For the fast test tier only (test/support/password-cost.ts): hashes it makes then cost about 1/32 of a deployment's,
 * where it makes and checks hundreds. Each hash keeps its own parameters, so checking one is unchanged. */
export function setPasswordCostForTests(testCost: { N: number; r: number; p: number }): void {
  cost = testCost;
}
const keyLength = 32;

/** What an acceptable password is (checked when a user is created; a sign-in only needs the contract's bounds). */
export const passwordRules = { minLength: 12, maxLength: 200 } as const;

function scrypt(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; node's default cap (32 MiB) is exactly that for N = 2^15, r = 8, so it is raised.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, keyLength, scryptOptions, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; false for anything that is not a hash of this shape. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (![options.N, options.r, options.p].every((x) => Number.isSafeInteger(x) && x > 0)) return false;
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), options);
  const want = Buffer.from(expected, 'base64url');
  return want.length === key.length && timingSafeEqual(key, want);
}

let dummy: Promise<string> | undefined;

/** A hash no password is known for: a sign-in for an unknown address is checked against it, so that it takes as long
 * as one for a known address with a wrong password. */
export const dummyPasswordHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(32).toString('base64url')));
