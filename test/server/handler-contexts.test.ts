// The handlers' contexts (http/request-context.ts): a secured operation's handler reads the caller from its group's
// context (a merchant's `merchantId`, a partner's `partnerId`), which the security handler builds; only the
// unsecured operations, the token issuers, get the request's context alone (GroupHandlers' `Anonymous`). This
// holds the handlers' types to the contract: an unsecured operation that is not a token issuer fails here.
import { describe, expect, it } from 'vitest';
import { servedOperations } from '../support/operations.js';

/** The operations each group's handlers declare anonymous (groups/<group>/handlers.ts). */
const anonymous: Record<string, string[]> = {
  merchant: ['issueToken'],
  platform: ['issueToken'],
  banking: ['issueToken'],
  partner: ['generatePartnerToken'],
  counterparty: ['generateCounterpartyToken'],
  console: ['signInToConsole'],
};

describe('handler contexts', () => {
  it.each(Object.keys(anonymous))('%s: the unsecured operations are the ones its handlers take as anonymous', (group) => {
    const unsecured = servedOperations
      .filter((o) => o.group === group && (o.op.security ?? []).length === 0 && (o.caller === 'none' || o.group === 'console'))
      .map((o) => o.operationId);
    expect(unsecured.sort()).toEqual(anonymous[group]);
  });

  it('every secured operation wants a merchant (groups A, B, D), a partner (C, E) or a console session', () => {
    for (const o of servedOperations.filter((x) => x.caller !== 'none'))
      expect(o.caller, `${o.group} ${o.operationId}`).toBe(
        o.group === 'console' ? 'console' : ['partner', 'counterparty'].includes(o.group) ? 'partner' : 'merchant',
      );
  });
});
