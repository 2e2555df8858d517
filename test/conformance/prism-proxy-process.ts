// One `prism proxy --errors` process in front of an upstream: validates every request and response against a
// bundled document, forwards valid requests, answers a violation with its own problem, and logs each
// violation. Every line Prism writes is kept, so a suite can assert that none reports a violation.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const prismBin = `${root}node_modules/.bin/prism`;
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

export interface PrismProxy {
  /** The proxy's origin: give it to a client as baseUrl (Prism answers every document path at its root). */
  url: string;
  /** Every line Prism wrote, without colours. */
  lines: string[];
  /** The lines that report a request or response violation (from line `from` on, up to line `to`). */
  violations(from?: number, to?: number): string[];
  /**
   * Resolves once every line about the exchanges answered so far has arrived, with the number of lines before
   * its own. Prism writes an exchange's lines before or as it answers, but they reach us through a pipe a
   * little later; a request for a path no document has is logged after them, and its last line ends the wait.
   */
  barrier(withinMs?: number): Promise<number>;
  stop(): Promise<void>;
}

// Under --errors Prism ends a violating exchange with `✖ error Request terminated with error: ...#VIOLATIONS`
// (a response) or `...#UNPROCESSABLE_ENTITY` (a request); a violation of lesser severity is logged as
// `Violation: <location> <message>` with a warning (⚠) or info mark. Any of them, or any error or warning
// line at all, counts.
const violationLine = /Violation:|VIOLATIONS|UNPROCESSABLE_ENTITY|✖|⚠/;

export function startPrismProxy(document: string, upstream: string, port: number, timeoutMs = 60_000): Promise<PrismProxy> {
  const args = ['proxy', '--errors', document, upstream, '--host', '127.0.0.1', '--port', String(port)];
  const proc: ChildProcess = spawn(prismBin, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  /** Resolves when a line passing `test` has arrived (at once if one has). */
  const lineArrives = (test: (line: string) => boolean, what: string, withinMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (lines.some(test)) return resolve();
      const listener = (line: string) => {
        if (!test(line)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`prism proxy on port ${port} logged no ${what} within ${withinMs} ms:\n${lines.slice(-10).join('\n')}`));
      }, withinMs);
      listeners.add(listener);
    });
  let barriers = 0;
  const proxy: PrismProxy = {
    url: `http://127.0.0.1:${port}`,
    lines,
    violations: (from = 0, to = lines.length) => lines.slice(from, to).filter((l) => violationLine.test(l)),
    async barrier(withinMs = 10_000) {
      const path = `/__barrier/${++barriers}`;
      const mine = (line: string) => line.includes(`[HTTP SERVER] get ${path} `);
      await (await fetch(`${proxy.url}${path}`)).arrayBuffer(); // Prism's own 404: no document has the path
      await lineArrives((line) => mine(line) && line.includes('Request terminated'), `end of ${path}`, withinMs);
      return lines.findIndex(mine);
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs);
    function fail(reason: string): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`prism proxy ${document} → ${upstream} on port ${port} ${reason}:\n${lines.slice(-30).join('\n')}`));
    }
    const read = (stream: NodeJS.ReadableStream | null) => {
      let rest = '';
      stream?.on('data', (chunk: Buffer) => {
        const parts = (rest + chunk.toString('utf8')).split('\n');
        rest = parts.pop() ?? '';
        parts.forEach(onLine);
      });
      stream?.on('end', () => onLine(rest));
    };
    function onLine(raw: string): void {
      const line = stripAnsi(raw).trimEnd();
      if (!line) return;
      lines.push(line);
      for (const listener of listeners) listener(line);
      if (!settled && line.includes('Prism is listening on')) {
        settled = true;
        clearTimeout(timer);
        resolve(proxy);
      }
    }
    read(proc.stdout);
    read(proc.stderr);
    proc.once('error', (err) => fail(`could not be spawned (${err.message})`));
    proc.once('close', (code, signal) => fail(`exited with ${signal ?? `code ${code}`}`));
  });
}
