// The banking domain (group D) as one service object over the store.
import type { Store } from '../store/database.js';
import { BankAccounts } from './bank-accounts.js';
import { Businesses } from './businesses.js';
import { Counterparties } from './counterparties.js';
import { Transfers } from './transfers.js';
import { Verifications } from './verifications.js';

export class Banking {
  readonly businesses: Businesses;
  readonly verifications: Verifications;
  readonly counterparties: Counterparties;
  readonly accounts: BankAccounts;
  readonly transfers: Transfers;

  constructor(store: Store) {
    this.businesses = new Businesses(store);
    this.verifications = new Verifications(store);
    this.counterparties = new Counterparties(store);
    this.accounts = new BankAccounts(store);
    this.transfers = new Transfers(store);
  }
}
