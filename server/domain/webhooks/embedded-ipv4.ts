// The IPv4 addresses an IPv6 address carries. A connection to such an address can end at the embedded IPv4
// host (a dual-stack socket, a NAT64 gateway, a 6to4 relay, a Teredo or ISATAP tunnel), so the address guard
// judges it by each of them as well as by its own range. Works on the 16 bytes, so every spelling of an
// address (compressed, expanded, dotted-quad tail, zone id, upper case) gives the same answer.
import { isIP } from 'node:net';

export type EmbeddingForm =
  | 'mapped'
  | 'translated'
  | 'compatible'
  | 'nat64'
  | 'nat64-local'
  | '6to4'
  | 'teredo-server'
  | 'teredo-client'
  | 'isatap';

export interface EmbeddedIPv4 {
  form: EmbeddingForm;
  address: string;
}

/** The 16 bytes of an IPv6 address in any textual form, or undefined when it is not one. */
export function ipv6Bytes(text: string): Uint8Array | undefined {
  const address = text.replace(/%.*$/, ''); // a zone id names an interface, not part of the address
  if (isIP(address) !== 6) return undefined;
  let hex = address;
  let dotted: number[] = [];
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    dotted = tail[2]!.split('.').map(Number);
    hex = `${tail[1]}0:0`; // two placeholder groups, filled from the dotted quad below
  }
  const [left, right] = hex.includes('::') ? hex.split('::') : [hex, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const head = groupsOf(left);
  const rest = groupsOf(right);
  const groups = right === undefined ? head : [...head, ...Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 255;
  });
  if (dotted.length === 4) bytes.set(dotted, 12);
  return bytes;
}

const ipv4At = (bytes: Uint8Array, at: number, xor = 0) => Array.from(bytes.subarray(at, at + 4), (b) => b ^ xor).join('.');
const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const zero = (count: number) => Array<number>(count).fill(0);

/**
 * Every IPv4 address the IPv6 address embeds, by form:
 * IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96` and IPv4-compatible `::/96` (last 32 bits);
 * NAT64 `64:ff9b::/96` (RFC 6052) and local-use `64:ff9b:1::/48` (RFC 8215; last 32 bits, as with a /96
 * prefix); 6to4 `2002::/16` (bits 16-47); Teredo `2001::/32` (server in bits 32-63, client in the last 32
 * bits inverted); ISATAP interface ids `::0:5efe:a.b.c.d` and `::200:5efe:a.b.c.d` under any prefix.
 * Empty for an address that embeds none, or that is not IPv6.
 */
export function embeddedIPv4(address: string): EmbeddedIPv4[] {
  const bytes = ipv6Bytes(address);
  if (!bytes) return [];
  const found: EmbeddedIPv4[] = [];
  const add = (form: EmbeddingForm, at: number, xor = 0) => found.push({ form, address: ipv4At(bytes, at, xor) });
  if (startsWith(bytes, [...zero(10), 0xff, 0xff])) add('mapped', 12);
  if (startsWith(bytes, [...zero(8), 0xff, 0xff, 0, 0])) add('translated', 12);
  if (startsWith(bytes, zero(12))) add('compatible', 12);
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zero(8)])) add('nat64', 12);
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) add('nat64-local', 12);
  if (startsWith(bytes, [0x20, 0x02])) add('6to4', 2);
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) {
    add('teredo-server', 4);
    add('teredo-client', 12, 0xff);
  }
  if ((bytes[8] === 0 || bytes[8] === 2) && startsWith(bytes.subarray(9), [0, 0x5e, 0xfe])) add('isatap', 12);
  return found;
}
