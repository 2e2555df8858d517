// Keeps webhook deliveries away from the service's own network (OWASP API7, SSRF). A target must be
// https and every address its name resolves to must be public: no loopback, private, link-local (cloud
// metadata lives there), CGNAT, multicast, unspecified or reserved ranges, in IPv4 or IPv6 form,
// including IPv4-mapped IPv6. Checked at registration and again at delivery, where the connection is
// pinned to the address that was checked, so a DNS answer that changes in between (rebinding) cannot win.
// WEBHOOK_ALLOW_PRIVATE=true relaxes it for local development (http and local addresses allowed).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
// ::/96 holds the unspecified ::, loopback ::1 and the deprecated IPv4-compatible ::a.b.c.d.
for (const [net, prefix] of [
  ['::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['2002::', 16],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** True when the address is not publicly routable (IPv4-mapped IPv6 judged as its IPv4 address). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class TargetRefused extends Error {}

export interface ResolvedTarget {
  url: URL;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Parses and checks a target; throws TargetRefused saying why. */
export async function checkTarget(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('is not a valid URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new TargetRefused('must use https');
  if (url.username || url.password) throw new TargetRefused('must not carry credentials');
  // URL parsing already turns numeric forms (2130706433, 0x7f.1, 0177.0.0.1) into dotted IPv4.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new TargetRefused(`host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`host ${host} does not resolve`);
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new TargetRefused(`resolves to a private, loopback or link-local address`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
