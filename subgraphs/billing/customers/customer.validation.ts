import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { CustomerType } from '../shared/enums.js';
import { metadataIssues } from '../shared/metadata.js';

/** Subscriptions import the metadata rule from here; it lives in shared/metadata.ts. */

/**
 * Business rules on customer fields, checked in the subgraph so GraphQL clients get the answers REST
 * clients get (whose bodies the adapter has already shape-checked with the same limits).
 */
export const CUSTOMER_NAME_MAX_LENGTH = 256;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Tax id formats by billing country (a subset of Stripe's TaxIDFormat, which Polar uses). The value
 * is normalised (spaces and dots removed, upper case); its checksum is not verified.
 */
const EU = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];
const TAX_ID_FORMATS: Record<string, string> = {
  ...Object.fromEntries(EU.map(c => [c, 'eu_vat'])),
  GB: 'gb_vat',
  US: 'us_ein',
  CA: 'ca_bn',
  AU: 'au_abn',
  NZ: 'nz_gst',
  CH: 'ch_vat',
  NO: 'no_vat',
  IS: 'is_vat',
  IN: 'in_gst',
  JP: 'jp_cn',
  KR: 'kr_brn',
  SG: 'sg_uen',
  BR: 'br_cnpj',
  MX: 'mx_rfc',
  ZA: 'za_vat',
  AE: 'ae_trn',
  SA: 'sa_vat',
  TR: 'tr_tin',
  IL: 'il_vat',
  HK: 'hk_br',
  TW: 'tw_vat',
  TH: 'th_vat',
  MY: 'my_sst',
  ID: 'id_npwp',
  CL: 'cl_tin',
  AR: 'ar_cuit',
  CO: 'co_nit',
  PE: 'pe_ruc',
  RU: 'ru_inn',
  UA: 'ua_vat',
  RS: 'rs_pib',
  LI: 'li_uid',
};

/** `"FR 61 954 506 077"` with a French address → `["FR61954506077", "eu_vat"]`. */
export function parseTaxId(
  taxId: string,
  country: string | null | undefined,
  loc: (string | number)[] = ['body', 'tax_id'],
): [string, string] {
  const value = taxId.replace(/[\s.-]/g, '').toUpperCase();
  const format = country ? TAX_ID_FORMATS[country.toUpperCase()] : undefined;
  if (!country) {
    throw new PolarRequestValidationError([
      { type: 'value_error', loc, msg: 'Country must be set in billing address to validate tax ID.', input: taxId },
    ]);
  }
  if (!format || value.length < 4 || !/^[A-Z0-9]+$/.test(value)) {
    throw new PolarRequestValidationError([{ type: 'value_error', loc, msg: 'Invalid tax ID.', input: taxId }]);
  }
  return [value, format];
}

export interface CustomerFieldsToCheck {
  type?: string | null;
  email?: string | null;
  name?: string | null;
  metadata?: unknown;
  country?: string | null;
  /** Whether the (resulting) customer must have an e-mail: individuals must. */
  emailRequired?: boolean;
}

export function checkCustomerFields(fields: CustomerFieldsToCheck): void {
  const issues: ValidationIssue[] = [];
  if (fields.type != null && !(Object.values(CustomerType) as string[]).includes(fields.type)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'type'],
      msg: "Input should be 'individual' or 'team'",
      input: fields.type,
    });
  }
  if (fields.email != null && !EMAIL.test(fields.email)) {
    issues.push({
      type: 'value_error',
      loc: ['body', 'email'],
      msg: 'value is not a valid email address',
      input: fields.email,
    });
  }
  if (fields.emailRequired && !fields.email) {
    issues.push({ type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: null });
  }
  if (fields.name != null && fields.name.length > CUSTOMER_NAME_MAX_LENGTH) {
    issues.push({
      type: 'string_too_long',
      loc: ['body', 'name'],
      msg: `String should have at most ${CUSTOMER_NAME_MAX_LENGTH} characters`,
      input: fields.name,
      ctx: { max_length: CUSTOMER_NAME_MAX_LENGTH },
    });
  }
  if (fields.metadata != null) issues.push(...metadataIssues(fields.metadata));
  if (fields.country != null && !/^[A-Z]{2}$/.test(fields.country)) {
    issues.push({
      type: 'literal_error',
      loc: ['body', 'billing_address', 'country'],
      msg: 'Input should be an ISO 3166-1 alpha-2 country code',
      input: fields.country,
    });
  }
  if (issues.length) throw new PolarRequestValidationError(issues);
}
