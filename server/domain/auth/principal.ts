// Who is calling: a merchant (groups A, B, D) or a partner (groups C, E), as a verified token says.
export type Principal = ({ kind: 'merchant'; merchantId: number } | { kind: 'partner'; partnerId: number }) & {
  /** The API client the token was issued to (the `client_id` claim of RFC 9068), when known. */
  clientId?: string;
  /** That client's credential generation when the token was issued (claim `gen`): a rotation raises it. */
  generation?: number;
  /** The console session the token was minted for (claim `sid`): the token ends with it. */
  sessionId?: string;
};

/** Everything a domain operation may know of its request besides its inputs: who calls, from where, under which id. */
export interface RequestContext {
  principal: Principal | undefined;
  ip: string;
  requestId: string;
}

export const subjectOf = (p: Principal): string => (p.kind === 'merchant' ? `merchant:${p.merchantId}` : `partner:${p.partnerId}`);

export function principalOf(subject: string): Principal | undefined {
  const match = /^(merchant|partner):([1-9][0-9]{0,15})$/.exec(subject);
  if (!match) return undefined;
  const id = Number(match[2]);
  return match[1] === 'merchant' ? { kind: 'merchant', merchantId: id } : { kind: 'partner', partnerId: id };
}
