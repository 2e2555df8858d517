// The five API groups: the one list every script, server module and test derives its loops from.
export const groups = ['merchant', 'platform', 'partner', 'banking', 'counterparty'] as const;
export type Group = (typeof groups)[number];
