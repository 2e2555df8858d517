// Keeps webhook deliveries away from the service's own network (OWASP API7, SSRF). A target must be
// https and every address its name resolves to must be public: no loopback, private, link-local (cloud
// metadata lives there), CGNAT, multicast, unspecified or reserved ranges, in IPv4 or IPv6 form. An IPv6
// address that carries an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo, ISATAP: `embedded-ipv4.ts`) is
// judged by each one it carries too, and the forms that are never reachable publicly (IPv4-compatible,
// IPv4-translated, local-use NAT64) are refused whole. Checked at registration and again at delivery, where
// the connection is pinned to the address that was checked, so a DNS answer that changes in between
// (rebinding) cannot win. WEBHOOK_ALLOW_PRIVATE=true relaxes it for local development (http and local
// addresses allowed).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { embeddedIPv4, ipv6Bytes } from './embedded-ipv4.js';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
// IPv6 ranges refused whole: the embedding forms never reachable publicly (IPv4-compatible ::/96, which also
// holds :: and ::1; IPv4-translated ::ffff:0:0:0/96; local-use NAT64 64:ff9b:1::/48, whose IPv4 address
// sits where the operator's prefix length puts it), unique-local, link-local, site-local, multicast,
// discard, benchmarking, ORCHID, documentation and SRv6. IPv4-mapped, NAT64 64:ff9b::/96, 6to4 and Teredo
// addresses are judged by the IPv4 addresses they carry: a DNS64 resolver answers 64:ff9b::/96 for every
// IPv4-only host, so refusing that range whole would refuse every such receiver.
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True when the address is not publicly routable, or carries an IPv4 address that is not. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return blocked.check(address, 'ipv4');
  const bytes = family === 6 ? ipv6Bytes(address) : undefined;
  if (!bytes) return true;
  const canonical = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!).toString(16)).join(':');
  if (blocked.check(canonical, 'ipv6')) return true;
  return embeddedIPv4(address).some((embedded) => blocked.check(embedded.address, 'ipv4'));
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
