// What every page of a signed-in console reads: the session and the public API's clients of its owner.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { BankingClient, MerchantClient, PartnerClient } from '@payout-service/client';
import type { Clients } from './api/clients.js';
import type { Session } from './api/console-api.js';

export interface Signedin {
  session: Session;
  clients: Clients;
}

export const ConsoleContext = createContext<Signedin | undefined>(undefined);

export function useConsole(): Signedin {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole: outside a signed-in console');
  return value;
}

/** The merchant's clients; pages only merchants reach call it. */
export function useMerchant(): { merchant: MerchantClient; banking: BankingClient } {
  const { clients } = useConsole();
  if (clients.kind !== 'merchant') throw new Error('This page is a merchant’s.');
  return clients;
}

export function usePartner(): PartnerClient {
  const { clients } = useConsole();
  if (clients.kind !== 'partner') throw new Error('This page is a partner’s.');
  return clients.partner;
}

export const isSandbox = (session: Session): boolean => session.environment === 'sandbox';
