// The facts the guides (docs/guides/*.md) state about the API, each read from the contract
// (generated/*/openapi.json) or from the service's own constants and tables, never typed into prose. A guide
// names a fact with a placeholder: `{{event-count}}` inside a sentence (an inline fact, Markdown text), or
// `{{webhook-event-table}}` alone on its line (a block fact, generated HTML: tables, diagrams, code). Where the service
// and the contract both hold a fact, the build fails when they disagree, rather than publishing either.
import { maxHeaderSize } from 'node:http';
import { problemTypes } from '../../generated/problem-types.js';
import { groups, type Group } from '../../generated/index.js';
import { tokenLifetimeSeconds } from '../../server/domain/auth/token-issuer.js';
import { failedAttemptLimits } from '../../server/domain/auth/failed-attempts.js';
import { generationCacheSeconds } from '../../server/domain/auth/client-generations.js';
import { businessVerificationOutcome, transferOutcome } from '../../server/domain/banking/sandbox-outcomes.js';
import { loadConfig } from '../../server/platform/config.js';
import { eventRetentionMs } from '../../server/domain/events/events.js';
import { deliveryLimits } from '../../server/domain/webhooks/delivery-slots.js';
import {
  allEvents,
  maxWebhooksPerMerchant,
  partnerEvents,
  previousSecretLifetimeMs,
} from '../../server/domain/webhooks/webhook-registrations.js';
import { renderOpenEnumerations } from './compatibility.js';
import { consoleFacts } from './console-facts.js';
import { deref, operationsOf, type Node } from '../contract/document.js';
import { property, schema } from './contract.js';
import { escapeHtml } from './markdown.js';
import { quickStartFacts, renderClientCode } from './quickstart.js';
import {
  authBlocks,
  errorBlocks,
  limitBlocks,
  renderGroups,
  renderPagers,
  renderSandbox,
  renderStatesSvg,
  renderStatesTable,
  sentenceIn,
  webhookBlocks,
} from './sections.js';

export interface Facts {
  /** Markdown text, substituted into a sentence before the page is rendered. */
  inline: Record<string, string>;
  /** HTML, standing for a paragraph of its own. */
  block: Record<string, string>;
}

const code = (s: unknown) => `\`${String(s)}\``;
const list = (items: unknown[]) => items.map(code).join(', ');
const codeHtml = (s: unknown) => `<code>${escapeHtml(String(s))}</code>`;
const table = (head: string[], rows: string[][]) =>
  `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/** Fails the build when the service and the contract state one fact differently. */
function agree<T>(what: string, service: T, contract: T): T {
  if (JSON.stringify(service) !== JSON.stringify(contract))
    throw new Error(`${what}: the service says ${JSON.stringify(service)}, the contract ${JSON.stringify(contract)}`);
  return service;
}

/** The `PageSize` query parameter of an operation: its bounds and default. */
function pageSizeOf(doc: Node, operationId: string): { minimum: number; maximum: number; default: number } {
  const o = operationsOf(doc).find((x) => x.op.operationId === operationId);
  const param = (o?.op.parameters ?? []).map((p: Node) => deref(doc, p)).find((p: Node) => p.name === 'PageSize');
  if (!param) throw new Error(`${operationId} has no PageSize`);
  return deref(doc, param.schema);
}

/** The sandbox's transfer outcomes by the cents of the amount, found by asking its decision for every cent. */
function transferOutcomes(): { cents: string; status: string; reasons: string }[] {
  const out: { cents: string; status: string; reasons: string }[] = [];
  for (let cents = 0; cents < 100; cents++) {
    const byRail = (['ACH_PULL', 'ACH_PUSH', 'WIRE_DOMESTIC', 'WIRE_INTERNATIONAL'] as const).map((rail) => ({
      rail,
      outcome: transferOutcome(rail, cents),
    }));
    if (byRail.every((r) => r.outcome.status === 'completed')) continue;
    const reasons = byRail
      .filter((r) => 'reasons' in r.outcome)
      .map((r) => {
        const reason = (r.outcome as { reasons: { code: string; networkCode: string | null }[] }).reasons[0]!;
        return `${r.rail}: ${codeHtml(reason.code)}${reason.networkCode ? ` (${escapeHtml(reason.networkCode)})` : ''}`;
      });
    out.push({ cents: `.${String(cents).padStart(2, '0')}`, status: byRail[0]!.outcome.status, reasons: reasons.join('<br>') });
  }
  return out;
}

/** The sandbox's business verification outcomes by the last four digits of the tax id. */
function verificationOutcomes(): string[][] {
  const rows: string[][] = [];
  for (let n = 0; n < 10_000; n++) {
    const digits = String(n).padStart(4, '0');
    const o = businessVerificationOutcome(`12-345${digits}`);
    if (o.status !== 'approved') rows.push([codeHtml(`…${digits}`), codeHtml(o.status), o.reasons.map((r) => codeHtml(r.code)).join(' ')]);
  }
  return rows;
}

export async function guideFacts(bundles: Record<Group, Node>, builtAt: Date): Promise<Facts> {
  const merchant = bundles.merchant;
  const config = loadConfig({});
  const console_ = consoleFacts(bundles.console);
  const selectable: string[] = schema(merchant, 'WebhookEventType').enum;
  const events = agree('the event types a registration without events receives', [...allEvents], selectable);
  const delivered = Object.keys(merchant.webhooks ?? {});
  const listWebhooks = operationsOf(merchant).find((o) => o.op.operationId === 'listWebhooks')!;
  const maxWebhooks = agree(
    'webhook registrations per merchant',
    maxWebhooksPerMerchant,
    deref(merchant, listWebhooks.op.responses['200']).content['application/json'].schema.maxItems,
  );
  // A partner's registrations (groups C and E, one shared contract): the payment requests' events.
  const partner = bundles.partner;
  const partnerSelectable = agree(
    "the event types a partner's registration without events receives",
    [...partnerEvents],
    schema(partner, 'PartnerWebhookEventType').enum as string[],
  );
  const listPartnerWebhooks = operationsOf(partner).find((o) => o.op.operationId === 'listPartnerWebhooks')!;
  const maxPartnerWebhooks = agree(
    'webhook registrations per partner',
    maxWebhooksPerMerchant,
    deref(partner, listPartnerWebhooks.op.responses['200']).content['application/json'].schema.maxItems,
  );
  const tokenLifetime = agree(
    'the token lifetime',
    tokenLifetimeSeconds,
    Number(property(merchant, 'TokenResponse', 'expires_in').example),
  );
  const pageSize = pageSizeOf(merchant, 'listPayouts');
  const states: string[] = schema(merchant, 'PayoutState').enum;
  const versions = [...new Set(Object.values(bundles).map((d) => String(d.info?.version)))].join(', ');
  const transfers = transferOutcomes();
  const { client, receiver } = await renderClientCode(bundles);
  const quickStarts = await quickStartFacts(bundles);
  const openEnumerations = renderOpenEnumerations(bundles);

  return {
    inline: {
      ...console_.inline,
      'group-count': String(groups.length),
      'api-version': versions,
      'event-count': String(events.length),
      'event-types': list(events),
      'payout-event-types': list(events.filter((e) => e.startsWith('payout.'))),
      'test-event': code(delivered.find((e) => !events.includes(e)) ?? 'webhook.test'),
      'payout-states': list(states),
      'max-webhooks': String(maxWebhooks),
      'partner-event-count': String(partnerSelectable.length),
      'partner-event-types': list(partnerSelectable),
      'max-partner-webhooks': String(maxPartnerWebhooks),
      'webhook-timeout-seconds': String(config.webhookTimeoutMs / 1000),
      'deliveries-per-receiver': String(deliveryLimits.perTarget),
      'event-retention-days': String(eventRetentionMs / 86_400_000),
      'secret-overlap-hours': String(previousSecretLifetimeMs / 3_600_000),
      'page-size-min': String(pageSize.minimum),
      'page-size-max': String(pageSize.maximum),
      'page-size-default': String(pageSize.default),
      'token-lifetime-seconds': String(tokenLifetime),
      'token-lifetime-minutes': String(tokenLifetime / 60),
      'failed-window-minutes': String(failedAttemptLimits.windowMs / 60_000),
      'failed-per-client-and-address': String(failedAttemptLimits.perClientAndAddress),
      'failed-per-address': String(failedAttemptLimits.perAddress),
      'rotation-seconds': String(generationCacheSeconds),
      'rate-limit-per-minute': String(config.rateLimitPerMinute),
      'header-limit-kib': String(maxHeaderSize / 1024),
      'headers-timeout-seconds': String(config.headersTimeoutMs / 1000),
      'request-timeout-seconds': String(config.requestTimeoutMs / 1000),
      'keep-alive-seconds': String(config.keepAliveTimeoutMs / 1000),
      'max-connections': config.maxConnections.toLocaleString('en-US'),
      'sandbox-step-ms': String(config.sandboxStepMs),
      'body-limit': sentenceIn(merchant, /\bMiB\b/),
      'accounts-per-payee': sentenceIn(merchant, /at most \d+ accounts/),
      'problem-kind-count': String(Object.keys(problemTypes).length),
      'transfer-returned-cents': code(transfers.find((t) => t.status === 'returned')?.cents),
      'transfer-failed-cents': code(transfers.find((t) => t.status === 'failed')?.cents),
      'transfer-held-cents': code(transfers.find((t) => t.status === 'processing')?.cents),
      'open-enumeration-count': String(openEnumerations.count),
      ...quickStarts.inline,
    },
    block: {
      groups: renderGroups(bundles),
      ...quickStarts.block,
      'quickstart-client': client,
      'webhook-receiver': receiver,
      'states-svg': `<figure class="diagram">${await renderStatesSvg()}</figure>`,
      'states-table': renderStatesTable(bundles),
      ...webhookBlocks(bundles),
      pagers: renderPagers(bundles),
      ...errorBlocks(bundles),
      ...authBlocks(bundles),
      ...limitBlocks(bundles),
      'open-enumerations': openEnumerations.table,
      'sandbox-accounts': await renderSandbox(),
      ...console_.block,
      'sandbox-transfers': table(
        ['Cents of the amount', 'Outcome', 'Reason code (network code) by rail'],
        transfers.map((t) => [codeHtml(t.cents), codeHtml(t.status), t.reasons]),
      ),
      'sandbox-verifications': table(['Tax id ends in', 'Verification status', 'Reason codes'], verificationOutcomes()),
      footer: `Built by <code>npm run docs</code> from the contract (API version ${escapeHtml(versions)}) on ${builtAt.toISOString().slice(0, 10)}.`,
    },
  };
}

/**
 * A guide's Markdown with its inline facts filled in; block placeholders stay for `fillBlocks`. An unknown
 * placeholder fails the build.
 */
export function fillInline(markdown: string, facts: Facts, page: string): string {
  return markdown.replace(/\{\{([a-z-]+)\}\}/g, (whole, name: string) => {
    if (facts.inline[name] !== undefined) return facts.inline[name]!;
    if (facts.block[name] !== undefined) return whole;
    throw new Error(`${page} has a placeholder {{${name}}} that facts.ts does not fill`);
  });
}

/** The rendered page with each block placeholder's paragraph replaced by its HTML. */
export function fillBlocks(html: string, facts: Facts, page: string): string {
  const filled = html.replace(/<p>\{\{([a-z-]+)\}\}<\/p>/g, (_, name: string) => facts.block[name]!);
  const left = /\{\{([a-z-]+)\}\}/.exec(filled);
  if (left) throw new Error(`${page}: {{${left[1]}}} is a block (a table or code) and must stand alone on its line`);
  return filled;
}
