// The names of the payees a page shows by id (a payout's payee): read once per payee and client, then kept for the
// session, so a list of payouts shows whom each pays without a read per row on every render.
import { type MerchantClient, unwrap } from '@payout-service/client';
import { useEffect, useState } from 'preact/hooks';

const known = new WeakMap<MerchantClient, Map<number, Promise<string | undefined>>>();

function nameOf(merchant: MerchantClient, id: number): Promise<string | undefined> {
  const names = known.get(merchant) ?? new Map<number, Promise<string | undefined>>();
  known.set(merchant, names);
  let name = names.get(id);
  if (!name) {
    // A payee that cannot be read (removed, or the read failed) shows by its id alone.
    name = unwrap(merchant.GET('/v1/payees/{id}', { params: { path: { id } } })).then(
      (p) => p.name,
      () => undefined,
    );
    names.set(id, name);
  }
  return name;
}

/** The names of `ids`' payees, as they arrive (an id without one yet is absent). */
export function usePayeeNames(merchant: MerchantClient, ids: readonly number[]): ReadonlyMap<number, string> {
  const [names, setNames] = useState<ReadonlyMap<number, string>>(new Map());
  const key = [...new Set(ids)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    let current = true;
    const wanted = key === '' ? [] : key.split(',').map(Number);
    void Promise.all(wanted.map(async (id) => [id, await nameOf(merchant, id)] as const)).then((found) => {
      if (current) setNames(new Map(found.flatMap(([id, name]) => (name === undefined ? [] : [[id, name] as const]))));
    });
    return () => {
      current = false;
    };
  }, [merchant, key]);
  return names;
}
