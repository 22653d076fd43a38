/**
 * The 27 member states of the EU VAT area and the prefix of their VAT numbers: the ISO 3166-1 code,
 * except Greece, whose VAT numbers start with `EL`. Great Britain (GB) is outside; Northern Ireland
 * (`XI`) is inside for goods only, and this service sells digital services, so an address is never
 * treated as XI (docs/tax.md).
 */
export const EU_VAT_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  AT: 'AT',
  BE: 'BE',
  BG: 'BG',
  CY: 'CY',
  CZ: 'CZ',
  DE: 'DE',
  DK: 'DK',
  EE: 'EE',
  ES: 'ES',
  FI: 'FI',
  FR: 'FR',
  GR: 'EL',
  HR: 'HR',
  HU: 'HU',
  IE: 'IE',
  IT: 'IT',
  LT: 'LT',
  LU: 'LU',
  LV: 'LV',
  MT: 'MT',
  NL: 'NL',
  PL: 'PL',
  PT: 'PT',
  RO: 'RO',
  SE: 'SE',
  SI: 'SI',
  SK: 'SK',
});

const COUNTRY_OF_PREFIX: ReadonlyMap<string, string> = new Map(
  Object.entries(EU_VAT_PREFIXES).map(([country, prefix]) => [prefix, country]),
);

/** Whether an address in this country is inside the EU VAT area (special territories aside). */
export function isEuMemberState(country: string | null | undefined): boolean {
  return !!country && Object.hasOwn(EU_VAT_PREFIXES, country.toUpperCase());
}

/** `GR` → `EL`; null outside the EU. */
export function vatPrefixOf(country: string): string | null {
  return EU_VAT_PREFIXES[country.toUpperCase()] ?? null;
}

/** `EL` → `GR`; null when the prefix names no member state. */
export function countryOfVatPrefix(prefix: string): string | null {
  return COUNTRY_OF_PREFIX.get(prefix.toUpperCase()) ?? null;
}
