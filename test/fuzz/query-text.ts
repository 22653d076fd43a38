/** Values as the fuzz test puts them on the wire: text, and percent-encoded for a query or a form. */

/**
 * Percent-encoded as UTF-8 (a lone surrogate becomes U+FFFD, as any client's encoder does), and
 * never longer than a server reads in a request line (Node: 16 KB of headers).
 */
export const encode = (value: unknown): string =>
  encodeURIComponent(
    queryText(value).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  )
    .slice(0, 4_000)
    .replace(/%[0-9A-F]?$/, '');

export function queryText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
