// ABA routing number checksum (3-7-1 weights, mod 10): the contract checks nine digits, this checks the
// number is one a US bank could have.
export function abaIsValid(routing: string): boolean {
  if (!/^[0-9]{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}
