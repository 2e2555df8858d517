// Waits on a condition with vitest's own poll (vi.waitFor), so every wait in these suites is bounded, and says what
// it waited for when the time runs out.
import { vi } from 'vitest';

export function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    },
    { timeout: timeoutMs, interval: everyMs },
  );
}
