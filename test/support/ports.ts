// Ports for a suite's own servers on fixed numbers (Prism takes a port, not 0). Two test runs on one machine, or two
// suites of one run, that scan the same range from its start find the same free ports and collide; starting the
// scan at a random point of the range makes that rare, and a suite that still loses the race can ask again.
import { freePortRange } from '../../scripts/mock/free-ports.js';

/** The first of `count` consecutive free ports in [from, to), scanned from a random point of it. */
export async function suitePortRange(count: number, from: number, to: number): Promise<number> {
  const steps = Math.max(0, Math.floor((to - from - count) / 10));
  const start = from + 10 * Math.floor(Math.random() * (steps + 1));
  try {
    return await freePortRange(count, start, to);
  } catch {
    return await freePortRange(count, from, to);
  }
}

/** Whether a server failed to start because its port was taken meanwhile. */
export const lostPortRace = (error: unknown) => /EADDRINUSE/.test(String((error as Error)?.message ?? error));
