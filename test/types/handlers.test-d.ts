// The typed handler contract: a handler set missing an operation, returning an undocumented status or a
// body of the wrong shape fails to compile, and so does a replay where the response documents no replay header.
import { describe, expectTypeOf, it } from 'vitest';
import type { OperationRequest } from '../../server/http/operation-handler.js';
import type { RequestContext } from '../../server/domain/auth/principal.js';
import type { MerchantHandlers } from '../../server/http/groups/merchant/handlers.js';
import type { components, operations } from '../../generated/merchant/schema.js';

type Payee = components['schemas']['Payee'];
declare const payee: Payee;
declare const handlers: MerchantHandlers;

describe('merchant handlers', () => {
  it('receive typed path parameters, query and body', () => {
    expectTypeOf<OperationRequest<operations['getPayee'], RequestContext>['params']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<OperationRequest<operations['createPayout'], RequestContext>['body']['Currency']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<OperationRequest<operations['listPayouts'], RequestContext>['query']['PageSize']>>().toEqualTypeOf<number>();
  });

  it('must return a documented status with its body', () => {
    const ok: MerchantHandlers['getPayee'] = async () => ({ status: 200, body: payee });
    // @ts-expect-error getPayee documents 200, not 201
    const wrongStatus: MerchantHandlers['getPayee'] = async () => ({ status: 201, body: payee });
    // @ts-expect-error the body must be a Payee
    const wrongBody: MerchantHandlers['getPayee'] = async () => ({ status: 200, body: { id: 'x' } });
    // @ts-expect-error createPayout answers 202 Accepted
    const wrongCreate: MerchantHandlers['createPayout'] = async () => ({ status: 201, body: {} as components['schemas']['Payout'] });
    const noContent: MerchantHandlers['deleteWebhook'] = async () => ({ status: 204 });
    void [ok, wrongStatus, wrongBody, wrongCreate, noContent];
  });

  it('may answer a replay only where the response documents Idempotent-Replayed', () => {
    const replay: MerchantHandlers['createPayee'] = async () => ({ status: 201, body: payee, replayed: true });
    // @ts-expect-error getPayee's 200 documents no Idempotent-Replayed header
    const notReplayable: MerchantHandlers['getPayee'] = async () => ({ status: 200, body: payee, replayed: true });
    void [replay, notReplayable];
  });

  it('must cover every operation', () => {
    const { createPayee: _, ...rest } = handlers;
    // @ts-expect-error createPayee is missing
    const missing: MerchantHandlers = rest;
    void missing;
  });
});
