// `npm run build` (every part, `--force`) and `prepare` (what `npm ci` and `npm install` run: each part when stale):
// the server bundle (build-server.mjs) and the web console (build-console.mjs).
import { buildConsole, ConsoleBuildUnavailable } from './build-console.mjs';
import { buildServer } from './build-server.mjs';

const force = process.argv.includes('--force');
try {
  let started = performance.now();
  const server = await buildServer(undefined, undefined, { force });
  if (server) console.error(`Built dist/server/main.js (${server}) in ${Math.round(performance.now() - started)} ms.`);
  started = performance.now();
  try {
    const console_ = await buildConsole(undefined, undefined, { force });
    if (console_) console.error(`Built dist/console/ (${console_}) in ${Math.round(performance.now() - started)} ms.`);
  } catch (err) {
    // Without the dev dependencies the service still builds and runs; /console/ says the console is not built.
    if (!(err instanceof ConsoleBuildUnavailable)) throw err;
    console.error(err.message);
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
