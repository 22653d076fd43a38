import { isIP } from 'node:net';

/**
 * IP literals as numbers, for the target policy: an IPv6 address as its eight 16-bit groups whatever
 * its spelling (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:0001` are one address), so
 * the policy reads the bits instead of matching text.
 */

/** The eight groups of an IPv6 literal (no brackets, no zone), or undefined when it is not one. */
export function ipv6Groups(address: string): number[] | undefined {
  // node:net validates the syntax (one `::` at most, group sizes, a trailing dotted quad only).
  if (isIP(address) !== 6 || address.includes('%')) return undefined;
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map(g => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups =
    tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every(g => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** `a.b.c.d` from two 16-bit groups (the high group first). */
export function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The canonical (RFC 5952-like, uncompressed) text of eight groups, for node:net's BlockList. */
export function ipv6Text(groups: readonly number[]): string {
  return groups.map(g => g.toString(16)).join(':');
}
