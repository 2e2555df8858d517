// isoTimestamp formats with integer arithmetic (server/platform/store/timestamps.ts); it must give Date's text exactly.
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../server/platform/store/timestamps.js';

const date = (ms: number) => new Date(ms).toISOString();

describe('isoTimestamp', () => {
  it.each([
    0,
    1,
    999,
    86_399_999,
    86_400_000,
    Date.UTC(2000, 1, 29, 23, 59, 59, 999), // a leap day of a century divisible by 400
    Date.UTC(2100, 1, 28, 12), // 2100 is not a leap year
    Date.UTC(2100, 2, 1),
    Date.UTC(2024, 11, 31, 23, 59, 59, 999),
    Date.UTC(2025, 0, 1),
    253_402_300_799_999, // 9999-12-31T23:59:59.999Z, the last time formatted by arithmetic
  ])('formats %i as Date does', (ms) => {
    expect(isoTimestamp(ms)).toBe(date(ms));
  });

  it('formats as Date does at every day boundary of 1970 to 2300, every 29th day to 9999, and at random times', () => {
    const mismatches: number[] = [];
    for (let day = 0; day < 2_932_897; day += day < 120_000 ? 1 : 29) {
      const ms = day * 86_400_000;
      if (isoTimestamp(ms) !== date(ms) || isoTimestamp(ms - 1 + 86_400_000) !== date(ms - 1 + 86_400_000)) mismatches.push(ms);
    }
    // A fixed-seed generator, so a failure names the same times on every run.
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 50_000; i += 1) {
      const ms = Math.floor(next() * 253_402_300_800_000);
      if (isoTimestamp(ms) !== date(ms)) mismatches.push(ms);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('takes a time a driver hands back as text, and leaves times outside 1970 to 9999 to Date', () => {
    expect(isoTimestamp('1763860000000' as unknown as number)).toBe(date(1_763_860_000_000));
    expect(isoTimestamp(-1)).toBe(date(-1));
    expect(isoTimestamp(253_402_300_800_000)).toBe(date(253_402_300_800_000));
  });
});
