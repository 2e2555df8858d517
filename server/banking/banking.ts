// The banking domain (group D) as one service object over the store.
import type { Logger } from 'pino';
import type { Store } from '../store/database.js';
import { AccountNumbers } from './account-numbers.js';
import { AccountStatements } from './account-statement.js';
import { BankAccounts } from './bank-accounts.js';
import { Businesses } from './businesses.js';
import { Counterparties } from './counterparties.js';
import { BankingReads } from './reads.js';
import { TransferReads } from './transfer-reads.js';
import { Simulations } from './simulations.js';
import { Transfers, type TransferSettings } from './transfers.js';
import { Verifications } from './verifications.js';

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

  constructor(store: Store, log: Logger, transferSettings?: TransferSettings, environment: 'sandbox' | 'production' = 'sandbox') {
    this.businesses = new Businesses(store);
    this.verifications = new Verifications(store);
    this.counterparties = new Counterparties(store);
    this.accounts = new BankAccounts(store);
    this.transfers = new Transfers(store, transferSettings);
    this.simulations = new Simulations(store, this.verifications, { environment });
    this.reads = new BankingReads(store);
    this.transferReads = new TransferReads(store);
    this.statements = new AccountStatements(store);
    this.accountNumbers = new AccountNumbers(store, log);
  }
}
