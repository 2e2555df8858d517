// What `npm start` runs, read from package.json's `start` script, for the places that start the server as `npm start`
// does without npm (the benchmark, the reliability tests): `node <V8 flags> scripts/build/start-server.mjs`. The flags
// are the service's memory settings (README, "Memory"): kept in the one script, so a change there reaches every
// place that claims to run the server as deployed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The arguments after `node` in package.json's `start` script; throws if the script is no longer of that form. */
export function startServerArgs(): string[] {
  const scripts = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
  const words = scripts.start!.trim().split(/\s+/);
  const [node, ...args] = words;
  const flags = args.slice(0, -1);
  if (node !== 'node' || args.at(-1) !== 'scripts/build/start-server.mjs' || flags.some((f) => !f.startsWith('--')))
    throw new Error(`package.json's start script is not \`node [--flags] scripts/build/start-server.mjs\`: ${scripts.start}`);
  return args;
}
