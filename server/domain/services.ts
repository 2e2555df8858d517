// Everything the handlers use, built once per process over one store.
import type { Logger } from 'pino';
import { ClientGenerations } from './auth/client-generations.js';
import { Credentials } from './auth/credentials.js';
import { Banking } from './banking/banking.js';
import { noSettlement, TransferEngine } from './banking/transfer-engine.js';
import { sandboxSettlement } from './banking/sandbox-settlement.js';
import { sandboxDecision } from './banking/sandbox-outcomes.js';
import { noDecision } from './banking/verifications.js';
import { FailedAttempts } from './auth/failed-attempts.js';
import { ConsoleCredentials } from './console/credentials.js';
import { defaultRequestLogSettings, RequestLogs } from './console/request-logs.js';
import { SessionLiveness } from './console/session-liveness.js';
import { ConsoleSessions } from './console/sessions.js';
import { ConsoleUsers } from './console/users.js';
import { loadSigningKey } from './auth/signing-keys.js';
import { TokenIssuer } from './auth/token-issuer.js';
import type { Config } from '../platform/config.js';
import { PayeeAccounts } from './payees/payee-accounts.js';
import { Payees } from './payees/payees.js';
import { Counterparties } from './partners/counterparties.js';
import { PartnerScope } from './partners/partner-scope.js';
import { PayeeUpdates } from './partners/payee-updates.js';
import { PaymentEngine } from './partners/payment-engine.js';
import { Payments } from './partners/payments.js';
import { Recipients } from './partners/recipients.js';
import { PayoutEngine } from './payouts/payout-engine.js';
import { Payouts } from './payouts/payouts.js';
import { noRail } from './rails/payout-rail.js';
import { sandboxRail } from './rails/sandbox-rail.js';
import type { Store } from '../platform/store/database.js';
import type { Resolver } from './webhooks/address-guard.js';
import { deliveryLimits } from './webhooks/delivery-slots.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { WebhookRegistrations } from './webhooks/webhook-registrations.js';
import { WebhookDeliveries } from './webhooks/webhook-deliveries.js';
import { Events } from './events/events.js';
import { type Limits, openLimits } from '../platform/limits/limits.js';
import { isSandbox } from './sandbox.js';

export interface Services {
  store: Store;
  log: Logger;
  credentials: Credentials;
  tokens: TokenIssuer;
  /** Where the rate limit and the failed token request limits count (limits/limits.ts); closed with the store. */
  limits: Limits;
  failedTokenAttempts: FailedAttempts;
  payees: Payees;
  accounts: PayeeAccounts;
  payouts: Payouts;
  webhooks: WebhookRegistrations;
  webhookDeliveries: WebhookDeliveries;
  events: Events;
  engine: PayoutEngine;
  dispatcher: WebhookDispatcher;
  banking: Banking;
  transferEngine: TransferEngine;
  recipients: Recipients;
  counterparties: Counterparties;
  payeeUpdates: PayeeUpdates;
  payments: Payments;
  paymentEngine: PaymentEngine;
  /** The console: its users, sessions, the owner's credentials, and the public API's request log. */
  consoleUsers: ConsoleUsers;
  consoleSessions: ConsoleSessions;
  consoleCredentials: ConsoleCredentials;
  /** Recorded by the HTTP service (app.ts), flushed while it serves (start.ts starts and closes it). */
  requestLogs: RequestLogs;
}

export async function createServices(
  store: Store,
  config: Config,
  log: Logger,
  options: {
    resolve?: Resolver;
    /** The clock of token issue and expiry (tests move it). The limits count on Date.now, as rate-limiter-flexible does. */
    now?: () => number;
    /** Where the limits count, when not where the store says (openLimits): the primary's, in a process of several. */
    limits?: Limits;
    /**
     * Told of every wake this process gives its workers, for the workers of the service's other processes (several
     * processes: server/primary.ts). A write in an HTTP process then starts the engine or dispatcher at once where
     * they run, rather than at their next poll.
     */
    wakeElsewhere?: (worker: WorkerName) => void;
  } = {},
): Promise<Services> {
  const { environment } = config;
  // This build's only rail and bank are the sandbox's. Production has none (no adapter to a real one is part of it):
  // there the engines hold every outbound movement in its first state and no verification is decided at once
  // (openapi/DECISIONS.md, "Production without a rail").
  const sandbox = isSandbox(environment);
  const rail = sandbox ? sandboxRail : noRail;
  const payees = new Payees(store);
  const limits = options.limits ?? (await openLimits(store, { redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix }, log));
  const now = options.now ?? Date.now;
  const credentials = new Credentials(store, new ClientGenerations(store, { now }), { now });
  const sessionLiveness = new SessionLiveness(store, { idleMs: config.consoleIdleTimeoutMs, now });
  const tokens = new TokenIssuer(await loadSigningKey(store), credentials.generations, { now, sessions: sessionLiveness });
  const dispatcher = new WebhookDispatcher(
    store,
    {
      allowPrivate: config.webhookAllowPrivate,
      timeoutMs: config.webhookTimeoutMs,
      pollMs: 250,
      // A round looks at 50 pending events; when it starts some of a full batch, the next follows at once.
      batchSize: 50,
      settleMs: 5,
      // A receiver that never answers holds perTarget deliveries for the timeout; idle sockets are cheap, so the
      // overall bound is far above what busy receivers use and only stops a crowd of hanging ones.
      limits: deliveryLimits,
      resolve: options.resolve,
      now: options.now,
    },
    log,
  );
  const engine = new PayoutEngine(
    store,
    rail,
    {
      stepMs: config.sandboxStepMs,
      pollMs: engineSettings(config).pollMs,
      batchSize: 200,
      settleMs: 5,
      onProgress: () => wake('webhooks'),
    },
    log,
  );
  const scope = new PartnerScope(store);
  const transferEngine = new TransferEngine(
    store,
    sandbox ? sandboxSettlement : noSettlement,
    {
      stepMs: config.sandboxStepMs,
      pollMs: engineSettings(config).pollMs,
      batchSize: 200,
      onProgress: () => wake('webhooks'),
    },
    log,
  );
  const webhooks = new WebhookRegistrations(store, { allowPrivate: config.webhookAllowPrivate, resolve: options.resolve, environment });
  const paymentEngine = new PaymentEngine(
    store,
    rail,
    {
      stepMs: config.sandboxStepMs,
      pollMs: engineSettings(config).pollMs,
      batchSize: 200,
      onProgress: () => wake('webhooks'),
    },
    log,
  );
  const local: Record<WorkerName, { wake(): void }> = {
    payouts: engine,
    payments: paymentEngine,
    transfers: transferEngine,
    webhooks: dispatcher,
  };
  function wake(worker: WorkerName): void {
    local[worker].wake(); // a no-op where this process runs no workers
    options.wakeElsewhere?.(worker);
  }
  return {
    store,
    log,
    credentials,
    tokens,
    limits,
    failedTokenAttempts: new FailedAttempts(limits),
    payees,
    accounts: new PayeeAccounts(store, payees),
    payouts: new Payouts(store, {
      stepMs: config.sandboxStepMs,
      environment,
      onChange: () => {
        wake('payouts');
        wake('webhooks');
      },
    }),
    webhooks,
    webhookDeliveries: new WebhookDeliveries(store, webhooks, dispatcher),
    events: new Events(store),
    engine,
    dispatcher,
    banking: new Banking(store, log, {
      stepMs: config.sandboxStepMs,
      onChange: () => {
        wake('transfers');
        wake('webhooks');
      },
      environment,
      firstDecision: sandbox ? sandboxDecision : noDecision,
    }),
    transferEngine,
    recipients: new Recipients(store, scope),
    counterparties: new Counterparties(store, scope),
    payeeUpdates: new PayeeUpdates(store),
    payments: new Payments(store, scope, {
      stepMs: config.sandboxStepMs,
      environment,
      onChange: () => {
        wake('payments');
        wake('webhooks');
      },
    }),
    paymentEngine,
    consoleUsers: new ConsoleUsers(store, now),
    consoleSessions: new ConsoleSessions(
      store,
      tokens,
      new FailedAttempts(limits, { name: 'failed-sign-in', what: 'sign-ins', identifier: 'email address' }),
      sessionLiveness,
      { idleMs: config.consoleIdleTimeoutMs, lifetimeMs: config.consoleSessionLifetimeMs, environment, now },
    ),
    consoleCredentials: new ConsoleCredentials(credentials),
    requestLogs: new RequestLogs(store, log, { ...defaultRequestLogSettings, now }),
  };
}

/** How often the engines look for due work: often enough to keep SANDBOX_STEP_MS, at most every 250 ms. */
function engineSettings(config: Config) {
  return { pollMs: Math.max(10, Math.min(250, config.sandboxStepMs || 10)) };
}

/** The background workers, by the name a wake from another process gives. */
export type WorkerName = 'payouts' | 'payments' | 'transfers' | 'webhooks';

export const workerNames: readonly WorkerName[] = ['payouts', 'payments', 'transfers', 'webhooks'];

/** The worker of that name (to wake it when another process wrote work for it). */
export function workerNamed(s: Services, name: WorkerName): { wake(): void } {
  return { payouts: s.engine, payments: s.paymentEngine, transfers: s.transferEngine, webhooks: s.dispatcher }[name];
}

/** The background workers of a process, started and stopped together (RUN_WORKERS). */
export function workersOf(s: Services): { start(): void; stop(): Promise<void> }[] {
  return [s.engine, s.dispatcher, s.paymentEngine, s.transferEngine];
}
