import { euVat } from 'stdnum';
import { PolarRequestValidationError } from '../errors.js';
import { countryOfVatPrefix, EU_VAT_PREFIXES, vatPrefixOf } from './eu-member-states.js';
import { COUNTRY_FORMATS, FORMAT_CHECKS } from './tax-id-formats.js';

/**
 * Tax id formats by billing country (Stripe's TaxIDFormat names, which Polar uses), in the order they
 * are tried; kit/tax/tax-id-formats.ts says how each is checked.
 */
export const TAX_ID_FORMATS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(Object.keys(EU_VAT_PREFIXES).map(country => [country, ['eu_vat']])),
  ...COUNTRY_FORMATS,
};

/**
 * Validates a tax id offline, by format and checksum, for a billing country: `"FR 61 954 506 077"`
 * with a French address → `["FR61954506077", "eu_vat"]`. An EU VAT id is stored with its member
 * state's prefix (`EL` for Greece), which may be left out when typed.
 *
 * Throws a 422 at `loc`: no country, an id that is no valid id of the country, or a valid id of
 * another country ("Tax ID does not match the billing country.").
 */
export function parseTaxId(
  taxId: string,
  country: string | null | undefined,
  loc: (string | number)[] = ['body', 'tax_id'],
): [string, string] {
  if (!country) {
    throw new PolarRequestValidationError([
      { type: 'value_error', loc, msg: 'Country must be set in billing address to validate tax ID.', input: taxId },
    ]);
  }
  const billingCountry = country.toUpperCase();
  const input = taxId.trim().toUpperCase();
  const parsed = input.length >= 4 ? parseFor(input, billingCountry) : null;
  if (parsed) return parsed;
  const msg = isOtherCountrysId(input, billingCountry)
    ? 'Tax ID does not match the billing country.'
    : 'Invalid tax ID.';
  throw new PolarRequestValidationError([{ type: 'value_error', loc, msg, input: taxId }]);
}

/** The id as a valid id of `country`, or null. */
function parseFor(input: string, country: string): [string, string] | null {
  if (vatPrefixOf(country)) {
    const value = parseEuVat(input, country);
    return value ? [value, 'eu_vat'] : null;
  }
  for (const format of COUNTRY_FORMATS[country] ?? []) {
    const outcome = FORMAT_CHECKS[format]!(input);
    if (outcome.ok) return [outcome.value, format];
    // Shaped like this format but failing its checksum: a wrong number, not another format's.
    if (outcome.definite) return null;
  }
  return null;
}

/** A member state's VAT number, with or without its prefix (`GR` accepted for `EL`), checksum verified. */
function parseEuVat(input: string, country: string): string | null {
  const prefix = vatPrefixOf(country)!;
  const value = input.replace(/[\s.\-/]/g, '');
  const national =
    value.startsWith(prefix) || (country === 'GR' && value.startsWith('GR')) ? value.slice(prefix.length) : value;
  for (const validator of euVat[country] ?? []) {
    const result = validator.validate(national);
    if (result.isValid) return prefix + result.compact;
  }
  return null;
}

/** Whether the id starts with another country's prefix and is a valid id there (a DE VAT id, a FR address). */
function isOtherCountrysId(input: string, billingCountry: string): boolean {
  const lead = input.replace(/[^A-Z0-9]/g, '').slice(0, 2);
  if (!/^[A-Z]{2}$/.test(lead)) return false;
  const other = countryOfVatPrefix(lead) ?? (Object.hasOwn(TAX_ID_FORMATS, lead) ? lead : null);
  if (!other || other === billingCountry) return false;
  return parseFor(input, other) !== null;
}
