// Polls a condition until it holds or a deadline passes: every wait in these suites is bounded.
export async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
