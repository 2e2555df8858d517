// The published docs in a real browser (Debian's Chromium, driven by playwright-core; never a downloaded
// browser): built by the docs builder, served from 127.0.0.1, each page renders everything it should, asks
// for nothing but the local server, fails no request and logs no console error. Screenshots go to
// test-results/docs/ for a person to look at. Each guide page renders with its sidebar marking it as the current
// page, and stays a readable length; the quick-start guide shows each script whole (the scripts themselves run in
// quickstarts.test.ts), and each of its links to an operation opens that operation.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemTypeBase, problemTypes } from '../../generated/problem-types.js';
import { buildDocs, type BuiltDocs } from '../../scripts/docs/build.js';
import { guideFile, guideNames } from '../../scripts/docs/guides.js';
import { quickStartScripts } from '../../scripts/docs/quickstart.js';
import { groups, type Group } from '../../generated/index.js';
import { bundles, operationsOf, resolve, type Json } from '../support/contract.js';
import { serveDirectory, type StaticServer } from './static-server.js';

const chromiumPath = '/usr/bin/chromium';
const haveChromium = existsSync(chromiumPath);
if (!haveChromium) {
  console.warn(
    `test/docs/browser.test.ts is skipped: ${chromiumPath} does not exist. Install Debian's Chromium ` +
      '(apt-get install -y --no-install-recommends chromium); CI does so in .ci/run.',
  );
}
const screenshots = new URL('../../test-results/docs/', import.meta.url).pathname;

interface OpenedPage {
  page: Page;
  /** Requests to anything but the local server (aborted before they leave the machine). */
  offsite: string[];
  /** Failed requests and answers of 400 and more. */
  failed: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
  close(): Promise<void>;
}

/** The browser globals the in-page functions below use (the repo's tsconfig has no DOM library). */
interface PageGlobals {
  location: { hash: string };
  document: {
    getElementById(id: string): { innerText: string } | null;
    querySelector(selector: string): { placeholder?: string } | null;
  };
}

/** The frame callback, to take a screenshot once the page has painted what it scrolled to. */
interface Painter {
  requestAnimationFrame(callback: () => void): void;
}

/** Goes to a Redoc route (`#/payees/createpayee`) without reloading the page. */
async function goToRoute(page: Page, href: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as PageGlobals).location.hash = h.replace(/^#?/, '#');
  }, href);
}

/** Everything a page of a group documents: operation summaries, then webhook summaries. */
function summariesOf(group: Group): string[] {
  const doc = bundles[group];
  const ops = operationsOf(group).map((o) => String(o.op.summary));
  const hooks = Object.values<Json>(doc.webhooks ?? {}).map((item) => String(resolve(doc, item).post.summary));
  return [...ops, ...hooks];
}

describe.skipIf(!haveChromium)('the published docs in Chromium', () => {
  let built: BuiltDocs;
  let site: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    built = await buildDocs();
    site = await serveDirectory(built.outDir);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await mkdir(screenshots, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(file: string): Promise<OpenedPage> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const opened: Omit<OpenedPage, 'page' | 'close'> = { offsite: [], failed: [], errors: [] };
    // Anything not for the local server is recorded and aborted, so the test itself sends nothing away.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${site.origin}/`)) return route.continue();
      opened.offsite.push(url);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('requestfailed', (r) => opened.failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) opened.failed.push(`${r.url()} answered ${r.status()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') opened.errors.push(m.text());
    });
    page.on('pageerror', (e) => opened.errors.push(e.message));
    await page.goto(`${site.origin}/docs/${file}`, { waitUntil: 'load' });
    return { page, ...opened, close: () => context.close() };
  }

  function expectClean(opened: OpenedPage): void {
    expect(opened.offsite, 'requests to other hosts').toEqual([]);
    expect(opened.failed, 'failed requests').toEqual([]);
    expect(opened.errors, 'console errors').toEqual([]);
  }

  it('builds the guide pages and one reference page per group, served locally', async () => {
    expect(built.pages).toEqual([...guideNames.map(guideFile), ...groups.map((g) => `${g}.html`)]);
  });

  it('publishes each quick-start script byte for byte', async () => {
    expect(built.scripts).toEqual(quickStartScripts.map((q) => q.file));
    for (const q of quickStartScripts)
      expect(await readFile(`${built.outDir}${q.file}`, 'utf8'), q.file).toBe(
        await readFile(new URL(`../../${q.source}`, import.meta.url), 'utf8'),
      );
  });

  it.each(guideNames)(
    'renders the %s guide, its sidebar marking it as the page the reader is on',
    async (name) => {
      const file = guideFile(name);
      const opened = await open(file);
      const { page } = opened;
      try {
        await page.waitForLoadState('networkidle');
        await expect.poll(() => page.locator('main h1').count()).toBe(1);
        const title = (await page.locator('main h1').innerText()).trim();
        expect(title.length).toBeGreaterThan(0);

        // Exactly one sidebar link is the current page: this one, drawn unlike the others.
        const current = page.locator('nav.toc a[aria-current="page"]');
        expect(await current.count()).toBe(1);
        expect(await current.getAttribute('href')).toBe(file);
        const background = (selector: string) =>
          page.$eval(
            selector,
            (a) =>
              (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(a).backgroundColor,
          );
        const other = guideFile(guideNames.find((n) => n !== name)!);
        expect(await background('nav.toc a[aria-current="page"]')).not.toBe(await background(`nav.toc a[href="${other}"]`));
        // Its sections are listed beneath it, and each exists.
        const sections = await page.$$eval('nav.toc ul.on-this-page a', (as) => as.map((a) => a.getAttribute('href')!.slice(1)));
        for (const id of sections) expect(await page.locator(`[id="${id}"]`).count(), `#${id}`).toBe(1);
        // Every guide and every reference page is one click away.
        for (const target of [...guideNames.map(guideFile), ...groups.map((g) => `${g}.html`)])
          expect(await page.locator(`nav.toc li > a[href="${target}"]`).count(), target).toBe(1);
        // Every in-page link resolves.
        const anchors = await page.$$eval('main a[href^="#"]', (as) => as.map((a) => a.getAttribute('href')!.slice(1)));
        for (const id of anchors) expect(await page.locator(`[id="${id}"]`).count(), `#${id}`).toBe(1);

        // A readable length: a guide, not the whole manual on one page.
        const height = await page.evaluate(
          () => (globalThis as unknown as { document: { body: { scrollHeight: number } } }).document.body.scrollHeight,
        );
        expect(height, `${file} is ${height} px tall`).toBeLessThan(20_000);

        await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true, timeout: 60_000 });
        expectClean(opened);
      } finally {
        await opened.close();
      }
    },
    120_000,
  );

  it('shows what each guide promises: groups, scripts, states, events, problem types, test accounts', async () => {
    const text = async (file: string) => {
      const opened = await open(file);
      try {
        await opened.page.waitForLoadState('networkidle');
        expectClean(opened);
        return { text: await opened.page.locator('main').innerText(), opened };
      } finally {
        await opened.close();
      }
    };
    const overview = (await text('index.html')).text;
    for (const g of groups) expect(overview).toContain(String(bundles[g].info.title));

    const quickStart = await open('quick-start.html');
    try {
      const { page } = quickStart;
      const shown = await page.locator('main').innerText();
      // Each quick start shows its script whole, in order (the step blocks are separated by one blank line), as
      // published next to the page, with what a reader needs to run it.
      for (const q of quickStartScripts) {
        const blocks = await page.locator(`.quick-start-script[data-file="${q.file}"] pre`).allTextContents();
        expect(`${blocks.join('\n\n')}\n`, q.file).toBe(await readFile(`${built.outDir}${q.file}`, 'utf8'));
        expect(await page.locator(`#${q.id} ~ p a[href="${q.file}"]`).count(), `link to ${q.file}`).toBeGreaterThan(0);
      }
      for (const needed of ['WEBHOOK_ALLOW_PRIVATE=true npm start', 'npm run --silent admin', 'bash docs/dist/quickstart.sh'])
        expect(shown).toContain(needed);
      expect(shown).toContain('createMerchantClient({ baseUrl, authUrl, credentials })');
      expectClean(quickStart);
    } finally {
      await quickStart.close();
    }

    // The state machine is drawn, with every state of the contract in it.
    const payouts = await open('payouts.html');
    try {
      const svg = payouts.page.locator('svg.state-machine');
      await expect.poll(() => svg.isVisible()).toBe(true);
      const svgText = await svg.textContent();
      for (const state of bundles.merchant.components.schemas.PayoutState.enum as string[]) expect(svgText).toContain(state);
      expectClean(payouts);
    } finally {
      await payouts.close();
    }

    const webhooks = (await text('webhooks.html')).text;
    for (const event of Object.keys(bundles.merchant.webhooks ?? {})) expect(webhooks).toContain(event);
    const errors = (await text('errors.html')).text;
    for (const kind of Object.keys(problemTypes)) expect(errors).toContain(problemTypeBase + kind);
    const sandboxText = (await text('sandbox.html')).text;
    const sandbox = JSON.parse(
      await readFile(new URL('../../server/domain/rails/sandbox-test-accounts.json', import.meta.url), 'utf8'),
    ) as {
      examples: Record<string, string>;
    };
    for (const number of Object.values(sandbox.examples)) expect(sandboxText).toContain(number);
  }, 180_000);

  it('opens the operation each quick-start step links to', async () => {
    const landing = await open('quick-start.html');
    // Each link names its operation (`<a href="merchant.html#/payees/createpayee"><code>createPayee</code></a>`).
    const links = await landing.page.$$eval('.quick-start-script a[href*=".html#/"]', (as) =>
      as.map((a) => [a.getAttribute('href')!, a.textContent!.trim()] as const),
    );
    await landing.close();
    expect(links.length).toBeGreaterThanOrEqual(quickStartScripts.length * 4);
    const byPage = new Map<string, { hash: string; operationId: string }[]>();
    for (const [href, operationId] of links) {
      const [file, hash] = href.split('#') as [string, string];
      byPage.set(file, [...(byPage.get(file) ?? []), { hash, operationId }]);
    }
    const missing: string[] = [];
    for (const [file, targets] of byPage) {
      const group = file.replace(/\.html$/, '') as Group;
      // The first link is opened as a reader's click opens it (a page load with the anchor), the others in place.
      const opened = await open(`${file}#${targets[0]!.hash}`);
      try {
        await opened.page.locator('#api-content').waitFor({ timeout: 60_000 });
        for (const [i, { hash, operationId }] of targets.entries()) {
          const summary = String(operationsOf(group).find((o) => o.op.operationId === operationId)?.op.summary);
          if (i > 0) await goToRoute(opened.page, hash);
          const shown = await opened.page
            .waitForFunction(
              (s) => (globalThis as unknown as PageGlobals).document.getElementById('api-content')?.innerText.includes(s) ?? false,
              summary,
              { timeout: 15_000 },
            )
            .then(
              () => true,
              () => false,
            );
          if (!shown) missing.push(`${file}#${hash}: ${operationId} (${summary})`);
        }
        expectClean(opened);
      } finally {
        await opened.close();
      }
    }
    expect(missing).toEqual([]);
  }, 300_000);

  it('shows an operation with its curl and TypeScript samples, open enumerations with their values, and the document', async () => {
    const opened = await open('merchant.html#/payouts/createpayout');
    const { page } = opened;
    const content = () => page.locator('#api-content').innerText();
    try {
      await page.getByRole('heading', { name: 'Create a payout' }).first().waitFor({ timeout: 60_000 });
      // The samples come from the reference document (x-codeSamples); Redoc shows one language at a time.
      const codeBlocks = page.locator('[data-component-name="CodeBlock/CodeBlock"]');
      await expect
        .poll(() => codeBlocks.allInnerTexts(), { timeout: 15_000 })
        .toContainEqual(expect.stringContaining('curl -X POST "$BASE_URL/v1/payouts"'));
      const language = page.locator('button[aria-haspopup="menu"]', { hasText: /^curl$/ });
      await language.click();
      const choices = page.locator('[role="menuitem"]');
      await expect.poll(() => choices.allInnerTexts()).toEqual(expect.arrayContaining(['curl', 'TypeScript']));
      await page.screenshot({ path: `${screenshots}reference-samples.png` });
      await choices.filter({ hasText: /^TypeScript$/ }).click();
      await expect
        .poll(() => codeBlocks.allInnerTexts(), { timeout: 15_000 })
        .toContainEqual(expect.stringMatching(/createMerchantClient[\s\S]*merchant\.POST\('\/v1\/payouts'/));

      // An open enumeration reads as its values, with the note that more may come, and no "Any of" choice.
      await goToRoute(page, '#/payouts/getpayout');
      await page.getByRole('heading', { name: 'Retrieve a payout' }).first().waitFor({ timeout: 15_000 });
      await expect.poll(content, { timeout: 15_000 }).toContain('(PayoutState)');
      const text = await content();
      const states = bundles.merchant.components.schemas.PayoutState.enum as string[];
      const field = text.slice(text.indexOf('(PayoutState)'));
      expect(field).toMatch(/The enumeration is open/);
      expect(field.slice(field.indexOf('Enum:'), field.indexOf('Enum:') + 200)).toMatch(
        new RegExp(states.map((v) => `"${v}"`).join('\\s+')),
      );
      expect(text).not.toMatch(/any of/i);
      expect(text).not.toContain('OpenEnumValue');
      const stateField = page.locator('#api-content').getByText('(PayoutState)').last();
      await stateField.scrollIntoViewIfNeeded();
      await expect.poll(() => stateField.isVisible()).toBe(true);
      await page.waitForFunction(
        () => new Promise((painted) => (globalThis as unknown as Painter).requestAnimationFrame(() => painted(true))),
      );
      await page.screenshot({ path: `${screenshots}reference-enum.png` });

      // The overview links the document the page shows, which the site serves.
      await goToRoute(page, '#/');
      await expect.poll(() => page.locator('a[download][href="merchant.openapi.json"]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const published = (await page.evaluate(async () => (await fetch('merchant.openapi.json')).json())) as Json;
      expect(published.paths['/v1/payouts'].post['x-codeSamples'].map((s: { label: string }) => s.label)).toEqual(['curl', 'TypeScript']);
      expectClean(opened);
    } finally {
      await opened.close();
    }
  }, 180_000);

  it.each(groups)(
    'renders every operation of the %s reference',
    async (group) => {
      const opened = await open(`${group}.html`);
      const { page } = opened;
      try {
        await page
          .locator('#api-content')
          .waitFor({ timeout: 60_000 }) // generous: CI machines with two busy cores parse 2.6 MB of Redoc slowly
          .catch(async (err: Error) => {
            await page.screenshot({ path: `${screenshots}${group}-failed.png`, fullPage: true });
            const body = (await page.locator('body').innerText()).slice(0, 500);
            throw new Error(
              `${err.message}\nerrors: ${JSON.stringify(opened.errors)}\nfailed: ${JSON.stringify(opened.failed)}\nbody: ${body}`,
            );
          });
        await page.waitForLoadState('networkidle');
        // The way back to the guides is a bar in the page's flow above Redoc, not a button floating over content.
        const bar = await page.$eval('nav.docs-bar', (nav) => {
          const g = globalThis as unknown as { getComputedStyle(e: unknown): { position: string } };
          const redoc = nav.nextElementSibling!.getBoundingClientRect();
          return { position: g.getComputedStyle(nav).position, bottom: nav.getBoundingClientRect().bottom, redocTop: redoc.top };
        });
        expect(bar.position).toBe('static');
        expect(bar.bottom).toBeLessThanOrEqual(bar.redocTop);
        expect(await page.locator('nav.docs-bar a[href="index.html"]').count()).toBe(1);
        // Redoc builds its search index in a worker; the screenshot is nicer once the box stops saying "Loading".
        await page
          .waitForFunction(
            () => !/Loading/.test((globalThis as unknown as PageGlobals).document.querySelector('input')?.placeholder ?? ''),
            undefined,
            { timeout: 5_000 },
          )
          .catch(() => undefined);
        await page.screenshot({ path: `${screenshots}${group}.png`, fullPage: true });

        // Redoc 3 shows one tag (and one operation) at a time: open each tag in the sidebar to list its items,
        // again (Redoc renders asynchronously) until every summary was seen or 15 s have passed.
        const expected = summariesOf(group);
        const tagLinks = await page.$$eval('.menu-item-type-group > a', (as) => as.map((a) => a.getAttribute('href')!));
        const items = new Map<string, string>();
        const deadline = Date.now() + 15_000;
        do {
          for (const href of tagLinks) {
            await goToRoute(page, href);
            // The tag's items render asynchronously; the outer loop tries again until all were seen.
            await page
              .waitForSelector('[data-component-name="Menu/MenuItem"] a[href] span[data-text]', { timeout: 2_000 })
              .catch(() => undefined);
            const found = await page.$$eval('[data-component-name="Menu/MenuItem"] a[href] span[data-text]', (spans) =>
              spans.map((s) => [s.getAttribute('data-text') ?? '', s.closest('a')!.getAttribute('href') ?? ''] as const),
            );
            for (const [label, href] of found) if (!items.has(label)) items.set(label, href);
          }
        } while (expected.some((s) => !items.has(s)) && Date.now() < deadline);

        // Each operation's own page renders its summary in the main content.
        const missing: string[] = [];
        let firstOperation: string | undefined;
        for (const summary of expected) {
          const href = items.get(summary);
          if (!href) {
            missing.push(`${summary} (not in the sidebar)`);
            continue;
          }
          firstOperation ??= href;
          await goToRoute(page, href);
          const shown = await page
            .waitForFunction(
              (s) => (globalThis as unknown as PageGlobals).document.getElementById('api-content')?.innerText.includes(s) ?? false,
              summary,
              { timeout: 10_000 },
            )
            .then(
              () => true,
              () => false,
            );
          if (!shown) missing.push(`${summary} (not rendered at ${href})`);
        }
        expect(missing).toEqual([]);
        expect(items.size).toBeGreaterThanOrEqual(expected.length);

        if (firstOperation) {
          await goToRoute(page, firstOperation);
          await page.waitForSelector('h2', { state: 'visible', timeout: 5_000 });
          await page.screenshot({ path: `${screenshots}${group}-operation.png`, fullPage: true });
        }
        expectClean(opened);
      } finally {
        await opened.close();
      }
    },
    180_000,
  );
});
