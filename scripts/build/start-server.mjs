// `npm start`: rebuilds dist/server/main.js if a file it was built from changed since (build-server.mjs; about
// 15 ms to find out when nothing did), and the console in dist/console/ likewise (build-console.mjs), then runs the
// server in this same process, sparing a second node start.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildConsole, ConsoleBuildUnavailable } from './build-console.mjs';
import { buildServer, packageRoot } from './build-server.mjs';

const started = performance.now();
try {
  const reason = await buildServer();
  if (reason) console.log(`Built dist/server/main.js (${reason}) in ${Math.round(performance.now() - started)} ms.`);
  const consoleStarted = performance.now();
  try {
    const built = await buildConsole();
    if (built) console.log(`Built dist/console/ (${built}) in ${Math.round(performance.now() - consoleStarted)} ms.`);
  } catch (err) {
    // Installed without the dev dependencies: the service runs, and /console/ says the console is not built.
    if (!(err instanceof ConsoleBuildUnavailable)) throw err;
    console.log(err.message);
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
await import(pathToFileURL(join(packageRoot, 'dist/server/main.js')).href);
