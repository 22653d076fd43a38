/**
 * Conversions that let one public-shape function take either a managed entity (Dates, bigints) or a
 * row of the read path (JSON: ISO strings, numbers).
 */
export function toDate(value: Date | string): Date;
export function toDate(value: Date | string | null | undefined): Date | null;
export function toDate(value: Date | string | null | undefined): Date | null {
  if (value == null) return null;
  return value instanceof Date ? value : new Date(value);
}

export function toBigInt(value: bigint | number | string): bigint;
export function toBigInt(value: bigint | number | string | null | undefined): bigint | null;
export function toBigInt(value: bigint | number | string | null | undefined): bigint | null {
  if (value == null) return null;
  return typeof value === 'bigint' ? value : BigInt(value);
}

/** `%text%` for `ilike`, with the pattern characters of `text` escaped (a search for `50%` finds "50%"). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, c => `\\${c}`)}%`;
