// The banking domain (group D) as one service object over the store.
import type { Logger } from 'pino';
import type { Store } from '../../platform/store/database.js';
import { AccountNumbers } from './account-numbers.js';
import { AccountStatements } from './account-statement.js';
import { BankAccounts } from './bank-accounts.js';
import { Businesses } from './businesses.js';
import { Counterparties } from './counterparties.js';
import { BankingReads } from './reads.js';
import { TransferReads } from './transfer-reads.js';
import { Simulations } from './simulations.js';
import { Transfers, type TransferSettings } from './transfers.js';
import type { FirstDecision } from './sandbox-outcomes.js';
import { Verifications } from './verifications.js';

export interface BankingSettings extends TransferSettings {
  /** Who decides a verification when it is made (the sandbox's tables, or no one in production). */
  firstDecision: FirstDecision;
}

export class Banking {
  readonly businesses: Businesses;
  readonly verifications: Verifications;
  readonly counterparties: Counterparties;
  readonly accounts: BankAccounts;
  readonly transfers: Transfers;
  readonly simulations: Simulations;
  /** Businesses, accounts, counterparties and verifications read back. */
  readonly reads: BankingReads;
  readonly transferReads: TransferReads;
  readonly statements: AccountStatements;
  readonly accountNumbers: AccountNumbers;

  constructor(store: Store, log: Logger, settings: BankingSettings) {
    const { environment, firstDecision, onChange, ...transfers } = settings;
    this.businesses = new Businesses(store);
    this.verifications = new Verifications(store, { environment, firstDecision, onChange });
    this.counterparties = new Counterparties(store);
    this.accounts = new BankAccounts(store);
    this.transfers = new Transfers(store, { environment, onChange, ...transfers });
    this.simulations = new Simulations(store, this.verifications, { environment, onChange });
    this.reads = new BankingReads(store);
    this.transferReads = new TransferReads(store);
    this.statements = new AccountStatements(store);
    this.accountNumbers = new AccountNumbers(store, log);
  }
}
