import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may be sent to. In production only public unicast addresses: loopback,
 * private (RFC 1918, unique local), link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * multicast, reserved and unspecified ranges are refused, also when a host name resolves to one or an
 * IPv6 address embeds one (`::ffff:127.0.0.1`, `64:ff9b::10.0.0.1`). The check runs inside the
 * connection's own DNS lookup, so the address checked is the address connected to (no rebinding
 * between check and connect); redirects are never followed. The sandbox, or an operator who sets
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true, allows every address.
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
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

export class ForbiddenTarget extends Error {
  constructor(readonly address: string) {
    super(`refused to deliver to ${address}: not a public address (WEBHOOK_ALLOW_PRIVATE_TARGETS)`);
  }
}

/** Whether `address` (an IP literal) is one a production webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return !blocked.check(bare, 'ipv4');
  if (family !== 6) return false;
  const embedded = embeddedIpv4(bare);
  if (embedded) return isPublicAddress(embedded);
  return !blocked.check(bare, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
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
