import { type Validator, stdnum } from 'stdnum';

/*
 * How each tax id format is checked. Formats are Stripe's TaxIDFormat names, which Polar uses, and the
 * formats of a country are Polar's, in Polar's order (docs/tax.md#tax-ids). A format is checked by the
 * `stdnum` library (format and checksum) where it has a validator; the formats it lacks keep a shape
 * check, named in the table below.
 */

/** The answer of one format's check: the value to store, or why not. */
export type FormatOutcome =
  | { ok: true; value: string }
  /** `definite`: the number has this format's shape but fails its checksum or a component; no other format is tried. */
  | { ok: false; definite: boolean };

export type FormatCheck = (input: string) => FormatOutcome;

/** Errors that mean "shaped like this format, but wrong"; a length or format error means "not this format". */
const DEFINITE_ERRORS = new Set(['InvalidChecksum', 'InvalidComponent']);

/** A stdnum validator; `fallback` may still accept a number that fails only the checksum. */
export function library(validator: Validator, fallback?: (compact: string) => boolean): FormatCheck {
  return input => {
    const result = validator.validate(input);
    if (result.isValid) return { ok: true, value: result.compact };
    const name = result.error?.name ?? '';
    if (fallback && name === 'InvalidChecksum') {
      const compact = input.replace(/[\s.-]/g, '');
      if (fallback(compact)) return { ok: true, value: compact };
    }
    return { ok: false, definite: DEFINITE_ERRORS.has(name) };
  };
}

/** A shape check on the value without spaces, dots, dashes, slashes or parentheses. */
export function shape(pattern: RegExp): FormatCheck {
  return input => {
    const value = input.replace(/[\s./()-]/g, '');
    return pattern.test(value) ? { ok: true, value } : { ok: false, definite: false };
  };
}

/** The check every format without a validator had before checksums: letters and digits, four or more. */
const ANY = shape(/^[A-Z0-9]{4,}$/);

/*
 * NOTE: Taiwan has issued business numbers whose weighted digit sum is divisible by 5 (not only 10)
 * since April 2023, with the same alternative for a seventh digit 7; stdnum 1.12 knows only the old rule.
 */
function taiwanUbn2023(compact: string): boolean {
  if (!/^\d{8}$/.test(compact)) return false;
  const weights = [1, 2, 1, 2, 1, 2, 4, 1];
  const sum = weights
    .map((w, i) => Number(compact[i]) * w)
    .reduce((acc, product) => acc + Math.floor(product / 10) + (product % 10), 0);
  return sum % 5 === 0 || (compact[6] === '7' && (sum + 1) % 5 === 0);
}

/*
 * NOTE: Ecuador's tax authority has issued company RUCs (third digit 9) without a usable modulo-11
 * check digit; such a number is accepted on its structure: province 01–24 or 30, 9, seven digits, 001.
 */
function ecuadorCompanyRuc(compact: string): boolean {
  return /^(0[1-9]|1\d|2[0-4]|30)9\d{7}001$/.test(compact);
}

const { AD, AR, AU, BR, CA, CH, CL, CN, CO, CR, DO, EC, EG, GB, ID, IL, IN, IS, JP, KE, KR, MK, MX } = stdnum;
const { NO, NZ, PE, RS, RU, SG, SV, TH, TR, TW, US, UY, VE, VN, ZA } = stdnum;

/** Every format but `eu_vat` (kit/tax/tax-id.ts checks it with its member-state prefix). */
export const FORMAT_CHECKS: Readonly<Record<string, FormatCheck>> = {
  ad_nrt: library(AD!.nrt!),
  // No stdnum validator: 15 digits (the UAE's tax registration number).
  ae_trn: shape(/^\d{15}$/),
  ar_cuit: library(AR!.cuit!),
  au_abn: library(AU!.abn!),
  au_arn: ANY, // no stdnum validator
  bh_vat: ANY, // no stdnum validator
  bo_tin: ANY, // no stdnum validator
  br_cnpj: library(BR!.cnpj!),
  br_cpf: library(BR!.cpf!),
  ca_bn: library(CA!.bn!),
  ca_gst_hst: library(CA!.gst!),
  ca_pst_bc: library(CA!.pst!),
  ca_pst_mb: ANY, // no stdnum validator
  ca_pst_sk: ANY, // no stdnum validator
  ca_qst: library(CA!.qst!),
  ch_uid: library(CH!.uid!),
  ch_vat: library(CH!.vat!),
  cl_tin: library(CL!.rut!),
  cn_tin: library(CN!.uscc!),
  co_nit: library(CO!.nit!),
  cr_tin: library(CR!.cpj!),
  do_rcn: library(DO!.rnc!),
  ec_ruc: library(EC!.ruc!, ecuadorCompanyRuc),
  eg_tin: library(EG!.tn!),
  gb_vat: library(GB!.vat!),
  // No stdnum validator: 9 digits (companies) or 11 (individuals), optionally after GE.
  ge_vat: shape(/^(GE)?(\d{9}|\d{11})$/),
  // No stdnum validator: the 8-digit business registration number.
  hk_br: shape(/^\d{8}$/),
  id_npwp: library(ID!.npwp!),
  il_vat: library(IL!.idnr!),
  in_gst: library(IN!.gstin!),
  is_vat: library(IS!.vsk!),
  jp_cn: library(JP!.cn!),
  jp_rn: ANY, // no stdnum validator
  // No stdnum validator: a qualified invoice issuer number is T and the 13-digit corporate number.
  jp_trn: shape(/^T\d{13}$/),
  ke_pin: library(KE!.pin!),
  kr_brn: library(KR!.brn!),
  kz_bin: ANY, // no stdnum validator
  li_uid: ANY, // no stdnum validator (stdnum's LI module is the personal id)
  mk_vat: library(MK!.edb!),
  mx_rfc: library(MX!.rfc!),
  // No stdnum validator: 8 digits starting with 2 or 3 (Mauritius's tax account number).
  mu_tan: shape(/^[23]\d{7}$/),
  my_frp: ANY, // no stdnum validator
  my_itn: ANY, // no stdnum validator
  my_sst: ANY, // no stdnum validator
  ng_tin: ANY, // no stdnum validator
  no_vat: library(NO!.mva!),
  no_voec: ANY, // no stdnum validator
  nz_gst: library(NZ!.ird!),
  om_vat: ANY, // no stdnum validator
  pe_ruc: library(PE!.ruc!),
  ph_tin: ANY, // no stdnum validator
  rs_pib: library(RS!.pib!),
  ru_inn: library(RU!.inn!),
  ru_kpp: ANY, // no stdnum validator
  sa_vat: ANY, // no stdnum validator
  sg_gst: ANY, // no stdnum validator
  sg_uen: library(SG!.uen!),
  sv_nit: library(SV!.nit!),
  th_vat: library(TH!.tin!),
  tr_tin: library(TR!.vkn!),
  tw_vat: library(TW!.ubn!, taiwanUbn2023),
  ua_vat: ANY, // no stdnum validator
  us_ein: library(US!.ein!),
  uy_ruc: library(UY!.rut!),
  ve_rif: library(VE!.rif!),
  vn_tin: library(VN!.mst!),
  za_vat: library(ZA!.vat!),
};

/**
 * The formats of each billing country, in the order they are tried: Polar's countries and formats,
 * in Polar's order except that a format checked only by `ANY` comes last (it would accept anything
 * before a format with a checksum is tried). The 27 member states take `eu_vat`.
 */
export const COUNTRY_FORMATS: Readonly<Record<string, readonly string[]>> = {
  AD: ['ad_nrt'],
  AE: ['ae_trn'],
  AR: ['ar_cuit'],
  AU: ['au_abn', 'au_arn'],
  BH: ['bh_vat'],
  BO: ['bo_tin'],
  BR: ['br_cnpj', 'br_cpf'],
  CA: ['ca_gst_hst', 'ca_pst_bc', 'ca_qst', 'ca_bn', 'ca_pst_mb', 'ca_pst_sk'],
  CH: ['ch_uid', 'ch_vat'],
  CL: ['cl_tin'],
  CN: ['cn_tin'],
  CO: ['co_nit'],
  CR: ['cr_tin'],
  DO: ['do_rcn'],
  EC: ['ec_ruc'],
  EG: ['eg_tin'],
  GB: ['gb_vat'],
  GE: ['ge_vat'],
  HK: ['hk_br'],
  ID: ['id_npwp'],
  IL: ['il_vat'],
  IN: ['in_gst'],
  IS: ['is_vat'],
  JP: ['jp_cn', 'jp_trn', 'jp_rn'],
  KE: ['ke_pin'],
  KR: ['kr_brn'],
  KZ: ['kz_bin'],
  LI: ['li_uid'],
  MK: ['mk_vat'],
  MU: ['mu_tan'],
  MX: ['mx_rfc'],
  MY: ['my_frp', 'my_itn', 'my_sst'],
  NG: ['ng_tin'],
  NO: ['no_vat', 'no_voec'],
  NZ: ['nz_gst'],
  OM: ['om_vat'],
  PE: ['pe_ruc'],
  PH: ['ph_tin'],
  RS: ['rs_pib'],
  RU: ['ru_inn', 'ru_kpp'],
  SA: ['sa_vat'],
  SG: ['sg_uen', 'sg_gst'],
  SV: ['sv_nit'],
  TH: ['th_vat'],
  TR: ['tr_tin'],
  TW: ['tw_vat'],
  UA: ['ua_vat'],
  US: ['us_ein'],
  UY: ['uy_ruc'],
  VE: ['ve_rif'],
  VN: ['vn_tin'],
  ZA: ['za_vat'],
};
