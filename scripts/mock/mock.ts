// `npm run mock`: Prism mocks of every group (scripts/mock/servers.ts), until Ctrl-C or SIGTERM.
//   MOCK_PORT_BASE=4010   group i of generated/index.ts listens on base + i (merchant 4010 ... console 4015)
//   MOCK_DYNAMIC=true     or --dynamic: responses generated from the schemas instead of the examples
//   MOCK_VERBOSE=true     or --verbose: Prism's own lines too (its inner ports, each request, each violation)
// By default it prints only the table of the ports a client should use: Prism's own ports are behind the front,
// and a client pointed at them would skip the front's checks.
import { groups } from '../../generated/index.js';
import { defaultPortBase, startMocks } from './servers.js';

function portBaseFromEnv(): number {
  const raw = process.env.MOCK_PORT_BASE;
  if (raw === undefined || raw === '') return defaultPortBase;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n + groups.length - 1 > 65_535) {
    console.error(`MOCK_PORT_BASE must be a port number (1..${65_535 - groups.length + 1}), not "${raw}".`);
    process.exit(2);
  }
  return n;
}

const dynamic = process.argv.includes('--dynamic') || process.env.MOCK_DYNAMIC === 'true';
const verbose = process.argv.includes('--verbose') || process.env.MOCK_VERBOSE === 'true';
const portBase = portBaseFromEnv();
const width = Math.max(...groups.map((g) => g.length));
let stopping = false;

const starting = startMocks({
  portBase,
  dynamic,
  // Prism logs its inner port, every request and each validation violation: asked for with --verbose.
  ...(verbose ? { onLine: (group: string, line: string) => console.log(`[${group.padEnd(width)}] ${line}`) } : {}),
  // Ctrl-C in a terminal signals Prism too (same process group): that is a normal stop, not a crash.
  onUnexpectedExit: (group, code, signal) => {
    if (signal === 'SIGINT' || signal === 'SIGTERM') void shutdown(signal, 0);
    else void shutdown(`the ${group} mock ended unexpectedly (code ${code})`, 1);
  },
});

// A signal during start-up still waits for the mocks that did start, so none is left behind.
async function shutdown(reason: string, code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${reason}: stopping the mocks.`);
  await starting.then(
    (m) => m.stop(),
    () => undefined,
  );
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT', 0));
process.on('SIGTERM', () => void shutdown('SIGTERM', 0));

const mocks = await starting.catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
console.log(`\nMocks ready (${dynamic ? 'dynamic responses' : 'static examples'}):`);
for (const g of groups) console.log(`  ${g.padEnd(width)}  ${mocks.urls[g]}`);
console.log("Point a client's baseUrl and authUrl at its group's mock (Prism answers B's paths without /payouts). Ctrl-C stops.");
if (!verbose) console.log("Prism's own log (each request, each violation): npm run mock -- --verbose.");
