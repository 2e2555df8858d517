// docs/dist/index.html: the hand-written docs/landing/index.html with each {{slot}} filled from the contract.
import { readFile } from 'node:fs/promises';
import { repoRoot, type Node } from './docs-contract.js';
import { renderOpenEnumerations } from './docs-compatibility.js';
import { renderClientCode, renderQuickStarts } from './docs-quickstart.js';
import {
  renderAuth,
  renderDecisions,
  renderErrors,
  renderGroups,
  renderLimits,
  renderPagers,
  renderReferenceLinks,
  renderSandbox,
  renderStatesSvg,
  renderStatesTable,
  renderWebhooks,
} from './docs-sections.js';
import type { Group } from '../generated/index.js';

/** Fills every {{slot}}; a slot without content, or content without a slot, fails the build. */
export function fillSlots(template: string, slots: Record<string, string>): string {
  const used = new Set<string>();
  const html = template.replace(/\{\{([a-z-]+)\}\}/g, (_, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new Error(`docs/landing/index.html has a slot {{${name}}} the builder does not fill`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(slots).filter((k) => !used.has(k));
  if (unused.length > 0) throw new Error(`docs/landing/index.html lacks the slots ${unused.map((k) => `{{${k}}}`).join(', ')}`);
  return html;
}

export async function renderLanding(bundles: Record<Group, Node>, builtAt: Date): Promise<string> {
  const [template, css] = await Promise.all([
    readFile(`${repoRoot}docs/landing/index.html`, 'utf8'),
    readFile(`${repoRoot}docs/landing/style.css`, 'utf8'),
  ]);
  const { client, receiver } = await renderClientCode(bundles);
  const versions = [...new Set(Object.values(bundles).map((d) => String(d.info?.version)))].join(', ');
  return fillSlots(template, {
    css,
    'reference-links': renderReferenceLinks(bundles),
    groups: renderGroups(bundles),
    quickstarts: await renderQuickStarts(bundles),
    'quickstart-client': client,
    'states-svg': await renderStatesSvg(),
    'states-table': renderStatesTable(bundles),
    webhooks: renderWebhooks(bundles, receiver),
    pagers: renderPagers(bundles),
    errors: renderErrors(bundles),
    auth: renderAuth(bundles),
    limits: renderLimits(bundles),
    'open-enumerations': renderOpenEnumerations(bundles),
    sandbox: await renderSandbox(),
    decisions: await renderDecisions(),
    footer: `Built by <code>npm run docs</code> from the contract (API version ${versions}) on ${builtAt.toISOString().slice(0, 10)}.`,
  });
}
