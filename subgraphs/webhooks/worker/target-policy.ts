import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ipv4Of, ipv6Groups, ipv6Text } from './ip-address.js';

/**
 * Which addresses a webhook may be sent to. In production only public unicast addresses: loopback,
 * private (RFC 1918, unique local), link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * multicast, reserved and unspecified ranges are refused, also when a host name resolves to one.
 * IPv6 addresses are read as numbers (`ip-address.ts`), never as text, so every spelling of one address
 * gets one answer, and the forms that carry an IPv4 address are judged by the IPv4 address they reach:
 * IPv4-mapped `::ffff:0:0/96` and SIIT's `::ffff:0:0:0/96`, NAT64's well-known `64:ff9b::/96`, 6to4
 * `2002::/16` (bits 16-48) and Teredo `2001::/32` (its server, and its client in the last 32 bits,
 * inverted). Forms whose IPv4 cannot be known or that no public host uses are refused outright: the
 * deprecated IPv4-compatible `::/96`, the rest of `64:ff9b::/32` including the local-use NAT64 prefix
 * `64:ff9b:1::/48` (RFC 8215: the operator picks where the IPv4 sits), and site-local `fec0::/10`. The
 * check runs inside the connection's own DNS lookup, so the address checked is the address connected to
 * (no rebinding between check and connect); redirects are never followed. The sandbox, or an operator
 * who sets WEBHOOK_ALLOW_PRIVATE_TARGETS=true, allows every address. Documented in docs/webhooks.md.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
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
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['100::', 64],
  ['64:ff9b::', 32],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

export class ForbiddenTarget extends Error {
  constructor(readonly address: string) {
    super(`refused to deliver to ${address}: not a public address (WEBHOOK_ALLOW_PRIVATE_TARGETS)`);
  }
}

/** Whether `address` (an IP literal, brackets allowed) is one a production webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return !blocked.check(bare, 'ipv4');
  // A zone (`fe80::1%eth0`) names a link: never a public address.
  const groups = family === 6 ? ipv6Groups(bare) : undefined;
  if (!groups) return false;
  const embedded = embeddedIpv4(groups);
  if (embedded) return embedded.every(isPublicAddress);
  return !blocked.check(ipv6Text(groups), 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address stands for and reaches, for the forms that carry them; undefined
 * for a native IPv6 address.
 */
function embeddedIpv4(g: readonly number[]): string[] | undefined {
  const zero = (from: number, to: number) => g.slice(from, to).every(x => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (SIIT translated).
  if (zero(0, 5) && g[5] === 0xffff) return [ipv4Of(g[6], g[7])];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6], g[7])];
  // 64:ff9b::a.b.c.d (NAT64's well-known prefix); the rest of 64:ff9b::/32 is in the block list.
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [ipv4Of(g[6], g[7])];
  // 2002:aabb:ccdd::/48 (6to4) reaches a.b.c.d.
  if (g[0] === 0x2002) return [ipv4Of(g[1], g[2])];
  // 2001:0:server::client (Teredo): the server's IPv4, and the client's stored inverted.
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2], g[3]), ipv4Of(g[6] ^ 0xffff, g[7] ^ 0xffff)];
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses non-public results (every address of the answer must be
 * public). Node calls it for host names only; IP literals are checked by `checkLiteralHost`.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, options.all ? [] : '');
    const list = addresses as LookupAddress[];
    const bad = list.find(a => !isPublicAddress(a.address));
    if (bad) return callback(new ForbiddenTarget(bad.address) as NodeJS.ErrnoException, options.all ? [] : '');
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}

/** Throws ForbiddenTarget when the URL's host is an IP literal that is not public. */
export function checkLiteralHost(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) throw new ForbiddenTarget(host);
  if (isIP(host) && !isPublicAddress(host)) throw new ForbiddenTarget(host);
}
