// Prism mocks of every group, one process and one port per group, each serving generated/<group>/openapi.json.
// Prism ignores the path part of `servers`, so every group (B's `{sandbox_url}/payouts` too) answers its
// paths at the root of its own port, and it serves per-operation `servers` (the token issuer at `{auth_url}`)
// on that port as well: a client points both baseUrl and authUrl at the mock's origin.
// Each group's port is answered by its front (scripts/mock/front.ts: the service's own request checks and
// problems, then Prism), and Prism itself listens on a free port of its own behind it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { groups as allGroups, type Group } from '../../generated/index.js';
import { rewrite, type Node } from '../contract/document.js';
import { freePort } from './free-ports.js';
import { createMockFront, listenFront, type IssuedTokens } from './front.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const prismBin = `${root}node_modules/.bin/prism`;
export const mockHost = '127.0.0.1';
export const defaultPortBase = 4010;

export interface MockOptions {
  /** Group i listens on portBase + i (its index in generated/index.ts). Default 4010. */
  portBase?: number;
  /** Responses generated from the schemas (`prism mock -d`) instead of the documents' examples. */
  dynamic?: boolean;
  /** Every line Prism writes, with its group (default: kept only for the error of a failed start). */
  onLine?: (group: Group, line: string) => void;
  /** Called when a mock ends on its own after it started (not by stop()). */
  onUnexpectedExit?: (group: Group, code: number | null, signal: NodeJS.Signals | null) => void;
  /** How long one mock may take to start listening. Default 60 s. */
  startTimeoutMs?: number;
  /** Put the front (scripts/mock/front.ts) on each group's port, Prism behind it. Default true; false serves
   * Prism itself on the port (the benchmark measures Prism alone). */
  front?: boolean;
}

export interface RunningMocks {
  /** The origin each group's mock answers at (`http://127.0.0.1:4010`). */
  urls: Record<Group, string>;
  /** The document each group's Prism serves (the bundle, or in dynamic mode a temporary copy removed on stop). */
  documents: Record<Group, string>;
  /** Stops every mock and waits for the processes to end. */
  stop(): Promise<void>;
}

/** The port of a group's mock: portBase plus the group's index in generated/index.ts. */
export function mockPort(group: Group, portBase = defaultPortBase): number {
  return portBase + allGroups.indexOf(group);
}

export function mockUrl(group: Group, portBase = defaultPortBase): string {
  return `http://${mockHost}:${mockPort(group, portBase)}`;
}

// Prism's CLI log prefixes lines with a time and colours; the text after them is what we match and report.
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

// yargs prints the command's usage before some errors (a port in use): its option lines and headings.
const isUsageLine = (l: string) => /^\s+-|^\s{20,}|^(Options|Positionals):$|^prism mock <document>$|^\s+document\s/.test(l);

interface Child {
  group: Group;
  /** Prism's own port. */
  port: number;
  process: ChildProcess;
  exited: Promise<void>;
  stopping: boolean;
  /** The front on the group's port, when there is one. */
  front?: Server;
  document: string;
}

const openValue = '#/components/schemas/OpenEnumValue';

/** The document the dynamic mock draws from: each open enumeration (`anyOf: [<known values>, OpenEnumValue]`) as its
 * known values, and each union without its member for kinds added later (a schema with a property that is any later
 * value, such as EventEnvelope's `type`), so a drawn `Status` or event `type` is one a `switch` has a branch for
 * rather than random text. Written to a temporary folder, removed when its Prism exits: generated/ stays what the
 * documents produce. */
function dynamicDocument(document: string, group: Group): string {
  const doc = JSON.parse(readFileSync(document, 'utf8')) as Node;
  const later = new Set(
    Object.entries<Node>(doc.components?.schemas ?? {})
      .filter(([, schema]) => Object.values<Node>(schema.properties ?? {}).some((p) => p?.$ref === openValue))
      .map(([name]) => `#/components/schemas/${name}`),
  );
  const open = (member: Node) => member?.$ref === openValue || later.has(member?.$ref);
  rewrite(doc, (node) => {
    if (Array.isArray(node) || !Array.isArray(node.anyOf) || !node.anyOf.some(open)) return undefined;
    return { ...node, anyOf: node.anyOf.filter((m: Node) => !open(m)) };
  });
  const path = join(mkdtempSync(join(tmpdir(), `payout-mock-${group}-`)), 'openapi.json');
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

function startOne(group: Group, port: number, options: MockOptions): Promise<Child> {
  const bundled = `${root}generated/${group}/openapi.json`;
  if (!existsSync(bundled)) return Promise.reject(new Error(`${group}: ${bundled} does not exist; run \`npm run generate\`.`));
  const document = options.dynamic ? dynamicDocument(bundled, group) : bundled;
  // Dynamic answers fill no additional properties: with the options Prism gives json-schema-faker (every optional
  // faked), it draws maps past their maxProperties (metadata with 87 keys against a limit of 50). A map then reads
  // as empty, which the contract allows; every declared property is still drawn.
  const dynamic = options.dynamic ? ['--dynamic', '--json-schema-faker-fillProperties=false'] : [];
  const args = ['mock', document, '--host', mockHost, '--port', String(port), ...dynamic];
  const proc = spawn(prismBin, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  const child: Child = {
    group,
    port,
    process: proc,
    stopping: false,
    document,
    exited: new Promise((r) => proc.once('close', () => r())),
  };
  // The dynamic document's folder is Prism's alone: gone when Prism is, however it ended.
  if (document !== bundled) proc.once('close', () => rmSync(dirname(document), { recursive: true, force: true }));
  const output: string[] = [];

  return new Promise<Child>((resolve, reject) => {
    let started = false;
    const timer = setTimeout(
      () => fail(`did not start listening within ${options.startTimeoutMs ?? 60_000} ms`),
      options.startTimeoutMs ?? 60_000,
    );
    function fail(reason: string): void {
      if (started) return;
      started = true;
      clearTimeout(timer);
      proc.kill('SIGTERM');
      // Prism's own words are the useful part: it prints why it refused a document before it exits (after
      // its usage text on some errors, which is left out).
      const said = output.filter((l) => !isUsageLine(l));
      reject(new Error(`Prism mock of ${group} (port ${port}) ${reason}. Prism said:\n${said.slice(-40).join('\n')}`));
    }
    // Lines may arrive split across chunks: keep each stream's unfinished last line until its end arrives.
    const read = (stream: NodeJS.ReadableStream | null) => {
      let rest = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        lines.forEach(onLine);
      });
      stream?.on('end', () => onLine(rest));
    };
    const onLine = (raw: string) => {
      const line = stripAnsi(raw).trimEnd();
      if (!line) return;
      output.push(line);
      if (output.length > 200) output.shift(); // a long `npm run mock` logs every request
      options.onLine?.(group, line);
      if (!started && line.includes('Prism is listening on')) {
        started = true;
        clearTimeout(timer);
        resolve(child);
      }
    };
    read(proc.stdout);
    read(proc.stderr);
    proc.once('error', (err) => fail(`could not be spawned (${err.message})`));
    // 'close' (not 'exit') comes after the output streams end, so a failed start reports Prism's last words.
    proc.once('close', (code, signal) => {
      if (!started) fail(`exited with ${signal ?? `code ${code}`} before listening`);
      else if (!child.stopping) options.onUnexpectedExit?.(group, code, signal);
    });
  });
}

async function stopAll(children: Child[]): Promise<void> {
  await Promise.all(
    children.map(async (c) => {
      c.stopping = true;
      if (c.front) {
        const front = c.front;
        const closed = new Promise<void>((r) => front.close(() => r()));
        front.closeAllConnections(); // idle keep-alive connections would hold close() open
        await closed;
      }
      if (c.process.exitCode !== null || c.process.signalCode !== null) return;
      c.process.kill('SIGTERM');
      // Prism exits on SIGTERM at once; a stuck one is killed after 5 s so stop() always ends.
      const killer = setTimeout(() => c.process.kill('SIGKILL'), 5_000);
      await c.exited;
      clearTimeout(killer);
    }),
  );
}

/** Starts one Prism mock per group and resolves when every one is listening (or rejects with Prism's output). */
export async function startMocks(options: MockOptions = {}): Promise<RunningMocks> {
  const portBase = options.portBase ?? defaultPortBase;
  const front = options.front ?? true;
  const issuedTokens: IssuedTokens = new Set();
  const results = await Promise.allSettled(
    allGroups.map(async (g) => {
      if (!front) return startOne(g, mockPort(g, portBase), options);
      const child = await startOne(g, await freePort(), options);
      const prismUrl = `http://${mockHost}:${child.port}`;
      const app = createMockFront({
        group: g,
        prismUrl,
        issuedTokens,
        dynamic: options.dynamic ?? false,
        log: (l) => options.onLine?.(g, l),
      });
      try {
        child.front = await listenFront(app, mockHost, mockPort(g, portBase));
      } catch (err) {
        await stopAll([child]);
        throw new Error(`the ${g} mock's front could not listen on port ${mockPort(g, portBase)}: ${(err as Error).message}`);
      }
      return child;
    }),
  );
  const children = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length > 0) {
    await stopAll(children);
    throw new Error(failures.map((e) => e.message).join('\n\n'));
  }
  const urls = Object.fromEntries(allGroups.map((g) => [g, mockUrl(g, portBase)])) as Record<Group, string>;
  const documents = Object.fromEntries(children.map((c) => [c.group, c.document])) as Record<Group, string>;
  return { urls, documents, stop: () => stopAll(children) };
}
