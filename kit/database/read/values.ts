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
