// `npm run docs`: builds docs/dist/ (scripts/docs/build.ts). Redocly's telemetry is off for the build.
import { relative } from 'node:path';
import { buildDocs } from './build.js';

process.env.REDOCLY_TELEMETRY = 'off';
const started = Date.now();
try {
  const { outDir, pages, scripts } = await buildDocs();
  console.log(
    `Built ${pages.length} pages into ${relative(process.cwd(), outDir) || '.'}/ in ${((Date.now() - started) / 1000).toFixed(1)} s: ${pages.join(', ')}`,
  );
  console.log(
    `The quick starts, to run against a local server: ${scripts.map((s) => `bash ${relative(process.cwd(), outDir)}/${s}`).join(', ')}`,
  );
  console.log('No page loads anything from another host. The server serves them at /docs.');
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
