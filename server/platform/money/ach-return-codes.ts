// What the ACH return codes a receiving bank gives for a credit mean (Nacha's return reason codes), so a returned
// payout can say why in words beside its code. A code not listed here is still a valid return; it is named as is.
const meanings: Readonly<Record<string, string>> = {
  R01: 'insufficient funds',
  R02: 'account closed',
  R03: 'no account, or the account cannot be located',
  R04: 'invalid account number',
  R06: 'returned at the request of the originating bank',
  R07: 'authorization revoked by the customer',
  R08: 'payment stopped',
  R10: 'the customer advises the entry is not authorized',
  R11: 'the entry does not match its authorization',
  R12: 'account sold to another bank',
  R13: 'invalid routing number',
  R14: 'the account holder has died',
  R15: 'the beneficiary has died',
  R16: 'account frozen',
  R17: 'the file record edit criteria were not met',
  R20: 'the account does not take this kind of entry',
  R23: 'credit refused by the receiver',
  R24: 'duplicate entry',
  R29: 'the corporate customer advises the entry is not authorized',
};

/** The code with its meaning where it is known: `R03 (no account, or the account cannot be located)`. */
export function describeAchReturn(code: string): string {
  const meaning = meanings[code];
  return meaning === undefined ? code : `${code} (${meaning})`;
}
