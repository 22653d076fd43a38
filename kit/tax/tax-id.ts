import { PolarRequestValidationError } from '../errors.js';

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
export const TAX_ID_FORMATS: Record<string, string> = {
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
