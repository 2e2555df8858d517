// The one read that gives an account's full number (`getAccountNumbers`): the owner needs it to be paid into the
// account and to name it as a `fundingAccountNumber`. Every other response masks it (views.ts). Each read is logged
// for audit, with who asked and for which account, never the number itself.
import type { Logger } from 'pino';
import type { components } from '../../../generated/banking/schema.js';
import type { Store } from '../../platform/store/database.js';
import { findAccount, pathParam } from './lookups.js';
import { bankRoutingNumber } from './routing-numbers.js';

export class AccountNumbers {
  constructor(
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  async read(merchantId: number, accountId: number, requestId: string): Promise<components['schemas']['AccountNumbers']> {
    const row = await findAccount(this.store.db, merchantId, accountId, pathParam('accountId', 'unknown account'));
    this.log.info({ merchantId, accountId, requestId }, 'account numbers read');
    return { accountId: Number(row.id), accountNumber: row.account_number, routingNumber: bankRoutingNumber };
  }
}
