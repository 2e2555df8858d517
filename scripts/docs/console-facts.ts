// What the docs state about the web console (facts.ts takes them in): its session's limits and the bounds of its
// credentials and request log, from the service and the console document; and its screenshots, a figure per page of
// console-pages.ts, its picture at console/<name>.png (copied there by build.ts from docs/console/, where
// `npm run docs:screenshots` takes them). A picture missing from docs/console/ fails the build, rather than
// publishing a broken image.
import { existsSync } from 'node:fs';
import { consoleTokenLifetimeSeconds } from '../../server/domain/console/sessions.js';
import { requestLogLimits } from '../../server/domain/console/request-logs.js';
import { loadConfig } from '../../server/platform/config.js';
import { consoleShots, overviewShots, screenshotSize, screenshotsDir } from './console-pages.js';
import { type Node, property } from './contract.js';
import { escapeHtml } from './markdown.js';

const minute = 60_000;
const hour = 60 * minute;

export function consoleFacts(consoleDocument: Node): { inline: Record<string, string>; block: Record<string, string> } {
  const config = loadConfig({});
  const overlap = property(consoleDocument, 'ConsoleCredentialRollRequest', 'overlapSeconds').maximum as number;
  return {
    inline: {
      'console-idle-minutes': String(config.consoleIdleTimeoutMs / minute),
      'console-session-hours': String(config.consoleSessionLifetimeMs / hour),
      'console-token-minutes': String(consoleTokenLifetimeSeconds / 60),
      'credential-overlap-hours': String(overlap / 3600),
      'request-log-kept': requestLogLimits.perOwner.toLocaleString('en-US'),
      'request-log-days': String(requestLogLimits.keepMs / (24 * hour)),
    },
    block: {
      'console-screenshots': renderConsoleScreenshots('all'),
      'console-overview-screenshots': renderConsoleScreenshots('overview'),
    },
  };
}

/** The figures of every page (`all`, the console guide) or of the few the overview shows. */
function renderConsoleScreenshots(which: 'all' | 'overview'): string {
  const shots = which === 'all' ? consoleShots : consoleShots.filter((s) => overviewShots.includes(s.name));
  const figures = shots.map(({ name, title }) => {
    if (!existsSync(`${screenshotsDir}${name}.png`))
      throw new Error(`docs/console/${name}.png is missing: run npm run docs:screenshots (it needs /usr/bin/chromium).`);
    const src = `console/${name}.png`;
    const caption = escapeHtml(title);
    return (
      `<figure><a href="${src}"><img src="${src}" alt="The console: ${caption}" width="${screenshotSize.width}" ` +
      `height="${screenshotSize.height}"></a><figcaption>${caption}</figcaption></figure>`
    );
  });
  return `<div class="screenshots">${figures.join('')}</div>`;
}
