// The one mask of the service: account numbers, IBANs, tax ids and identification numbers leave it only as
// their last 4 letters or digits, in every group. Separators are dropped first, so `123-45-6789` shows
// `6789` (never `-789`), and the mask of a value always matches the contract's `^[A-Za-z0-9]{1,4}$`.
export function lastFour(value: string): string {
  return value.replace(/[^A-Za-z0-9]/g, '').slice(-4);
}

export function lastFourOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : lastFour(value);
}
