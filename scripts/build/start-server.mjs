// `npm start`: rebuilds dist/server/main.js if a file it was built from changed since (build-server.mjs; about
// 15 ms to find out when nothing did), then runs it in this same process, sparing a second node start.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, packageRoot } from './build-server.mjs';

const started = performance.now();
try {
  const reason = await buildServer();
  if (reason) console.log(`Built dist/server/main.js (${reason}) in ${Math.round(performance.now() - started)} ms.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await import(pathToFileURL(join(packageRoot, 'dist/server/main.js')).href);
