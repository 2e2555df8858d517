// Random bytes for identifiers, drawn from the system's generator 4 KiB at a time: one call per a few
// hundred ids instead of one per id (each call costs more than the bytes it returns). Same generator,
// same unpredictability; each byte is handed out once.
import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(4096);
let used = pool.length;

/** `size` fresh random bytes (at most 256), as a view that is valid until the next call. */
export function randomBytesFromPool(size: number): Buffer {
  if (size > 256) throw new RangeError('randomBytesFromPool: at most 256 bytes at a time');
  if (used + size > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}
