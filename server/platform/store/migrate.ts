// Applies the migrations in ./migrations, in name order, once each. Both dialects run the same files.
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/0001_initial.js';
import * as partnerPayments from './migrations/0002_partner_payments.js';
import * as banking from './migrations/0003_banking.js';
import * as deliverySweep from './migrations/0004_delivery_sweep.js';
import * as credentialGeneration from './migrations/0005_credential_generation.js';
import * as partnerPaymentKeys from './migrations/0006_partner_payment_keys.js';
import * as events from './migrations/0007_events.js';
import * as moneyFollowed from './migrations/0008_money_followed.js';
import * as accountTransfersIndex from './migrations/0009_account_transfers_index.js';
import * as caseFolding from './migrations/0010_case_folding.js';
import * as payoutReturns from './migrations/0011_payout_returns.js';
import * as deliveryAttempts from './migrations/0012_delivery_attempts.js';
import * as deliveryRetries from './migrations/0013_delivery_retries.js';
import * as metadata from './migrations/0014_metadata.js';
import * as rateLimits from './migrations/0015_rate_limits.js';
import * as partnerEvents from './migrations/0016_partner_events.js';
import * as resourceEnvironment from './migrations/0017_resource_environment.js';
import * as console from './migrations/0018_console.js';
import * as deliveryExcerpts from './migrations/0019_delivery_excerpts.js';
import * as pendingBySubject from './migrations/0020_pending_by_subject.js';
import type { Environment } from '../environment.js';
import type { Store } from './store.js';

/** What a migration may need beyond the store: the environment the deployment runs in (for rows written before a column). */
export interface MigrationContext {
  environment: Environment;
}

const migrations: Record<string, (store: Store, context: MigrationContext) => Migration> = {
  '0001_initial': initial.migration,
  '0002_partner_payments': partnerPayments.migration,
  '0003_banking': banking.migration,
  '0004_delivery_sweep': deliverySweep.migration,
  '0005_credential_generation': credentialGeneration.migration,
  '0006_partner_payment_keys': partnerPaymentKeys.migration,
  '0007_events': events.migration,
  '0008_money_followed': moneyFollowed.migration,
  '0009_account_transfers_index': accountTransfersIndex.migration,
  '0010_case_folding': caseFolding.migration,
  '0011_payout_returns': payoutReturns.migration,
  '0012_delivery_attempts': deliveryAttempts.migration,
  '0013_delivery_retries': deliveryRetries.migration,
  '0014_metadata': metadata.migration,
  '0015_rate_limits': rateLimits.migration,
  '0016_partner_events': partnerEvents.migration,
  '0017_resource_environment': (_store, context) => resourceEnvironment.migration(context),
  '0018_console': console.migration,
  '0019_delivery_excerpts': deliveryExcerpts.migration,
  '0020_pending_by_subject': pendingBySubject.migration,
};

/** Applies every migration not yet applied, or those up to and including `upTo` (to test a migration on old data). */
export async function migrateToLatest(store: Store, upTo?: string, context: MigrationContext = { environment: 'sandbox' }): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(store, context)])),
  };
  const migrator = new Migrator({ db: store.db, provider });
  const { error, results } = await (upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(upTo));
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? ''} failed: ${(error as Error).message}`, { cause: error });
  }
}
