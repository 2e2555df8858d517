// ABA routing numbers: the contract checks the shape (9 digits), this checks the check digit, weights
// 3-7-1 over the nine digits. The sandbox's Federal Reserve directory is "every number whose check digit
// is right", so this is the whole bank lookup here.

/** The bank's own routing number: what accounts opened here are reached by. */
export const bankRoutingNumber = '084101022';

export function abaIsValid(routingNumber: string): boolean {
  if (!/^[0-9]{9}$/.test(routingNumber)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routingNumber].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
  return sum % 10 === 0;
}
