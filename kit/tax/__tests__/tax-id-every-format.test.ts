import { parseTaxId, TAX_ID_FORMATS } from '../tax-id.js';

/*
 * Every format a billing country can take (Polar's list, docs/tax.md#tax-ids) accepts a real number of
 * its kind and refuses the same number with its check digit changed. The valid numbers are the
 * examples of the formats' own references (python-stdnum's and its port's test cases).
 */

/** [billing country, as typed, stored, format] */
const VALID: [string, string, string, string][] = [
  // eu_vat, each member state
  ['AT', 'ATU13585627', 'ATU13585627', 'eu_vat'],
  ['BE', 'BE403019261', 'BE0403019261', 'eu_vat'],
  ['BG', 'BG 175 074 752', 'BG175074752', 'eu_vat'],
  ['CY', 'CY-10259033P', 'CY10259033P', 'eu_vat'],
  ['CZ', 'CZ 25123891', 'CZ25123891', 'eu_vat'],
  ['DE', 'DE136695976', 'DE136695976', 'eu_vat'],
  ['DK', 'DK 13585628', 'DK13585628', 'eu_vat'],
  ['EE', '100594102', 'EE100594102', 'eu_vat'],
  ['ES', 'ES B-58378431', 'ESB58378431', 'eu_vat'],
  ['FI', 'FI 20774740', 'FI20774740', 'eu_vat'],
  ['FR', 'Fr 40 303 265 045', 'FR40303265045', 'eu_vat'],
  ['GR', 'EL 094259216', 'EL094259216', 'eu_vat'],
  ['HR', 'HR 33392005961', 'HR33392005961', 'eu_vat'],
  ['HU', 'HU-12892312', 'HU12892312', 'eu_vat'],
  ['IE', 'IE 6433435F', 'IE6433435F', 'eu_vat'],
  ['IT', 'IT 00743110157', 'IT00743110157', 'eu_vat'],
  ['LT', '119511515', 'LT119511515', 'eu_vat'],
  ['LU', 'LU 150 274 42', 'LU15027442', 'eu_vat'],
  ['LV', 'LV 4000 3521 600', 'LV40003521600', 'eu_vat'],
  ['MT', 'MT 1167-9112', 'MT11679112', 'eu_vat'],
  ['NL', '004495445B01', 'NL004495445B01', 'eu_vat'],
  ['PL', 'PL 8567346215', 'PL8567346215', 'eu_vat'],
  ['PT', 'PT 501 964 843', 'PT501964843', 'eu_vat'],
  ['RO', '185 472 90', 'RO18547290', 'eu_vat'],
  ['SE', 'SE 123456789701', 'SE123456789701', 'eu_vat'],
  ['SI', 'SI 5022 3054', 'SI50223054', 'eu_vat'],
  ['SK', 'SK 202 274 96 19', 'SK2022749619', 'eu_vat'],
  // formats checked by stdnum
  ['AD', 'U-132950-X', 'U132950X', 'ad_nrt'],
  ['AR', '20-05536168-2', '20055361682', 'ar_cuit'],
  ['AU', '83 914 571 673', '83914571673', 'au_abn'],
  ['BR', '16.727.230/0001-97', '16727230000197', 'br_cnpj'],
  ['BR', '390.533.447-05', '39053344705', 'br_cpf'],
  ['CA', '12302 6635', '123026635', 'ca_bn'],
  ['CA', '754039725 RT 0001', '754039725RT0001', 'ca_gst_hst'],
  ['CA', 'PST-1234-5678', 'PST12345678', 'ca_pst_bc'],
  ['CA', '1224002901 TQ 0001', '1224002901TQ0001', 'ca_qst'],
  ['CH', 'CHE109910570', 'CHE109910570', 'ch_uid'],
  ['CH', 'CHE-107.787.577 IVA', 'CHE107787577IVA', 'ch_vat'],
  ['CL', '76086428-5', '760864285', 'cl_tin'],
  ['CN', '91110000600037341L', '91110000600037341L', 'cn_tin'],
  ['CO', '213.123.432-1', '2131234321', 'co_nit'],
  ['CR', '3-101-999999', '3101999999', 'cr_tin'],
  ['DO', '1-01-85004-3', '101850043', 'do_rcn'],
  ['EC', '1792060346-001', '1792060346001', 'ec_ruc'],
  ['EG', '100-531-385', '100531385', 'eg_tin'],
  ['GB', 'GB 980 7806 84', '980780684', 'gb_vat'],
  ['ID', '01.312.166.0-091.000', '013121660091000', 'id_npwp'],
  ['IL', '3933742-3', '39337423', 'il_vat'],
  ['IN', '27AAPFU0939F1ZV', '27AAPFU0939F1ZV', 'in_gst'],
  ['IS', 'IS 00621', '00621', 'is_vat'],
  ['JP', '5-8356-7825-6246', '5835678256246', 'jp_cn'],
  ['KE', 'P051365947M', 'P051365947M', 'ke_pin'],
  ['KR', '116-82-00276', '1168200276', 'kr_brn'],
  ['MK', 'MK4030000375897', '4030000375897', 'mk_vat'],
  ['MX', 'GODE 561231 GR8', 'GODE561231GR8', 'mx_rfc'],
  ['NO', 'NO 995 525 828 MVA', '995525828MVA', 'no_vat'],
  ['NZ', '4909185-0', '49091850', 'nz_gst'],
  ['PE', '20512333797', '20512333797', 'pe_ruc'],
  ['RS', '101134702', '101134702', 'rs_pib'],
  ['RU', '123456789047', '123456789047', 'ru_inn'],
  ['SG', '00192200M', '00192200M', 'sg_uen'],
  ['SV', '0614-050707-104-8', '06140507071048', 'sv_nit'],
  ['TH', '3-10-1-201-21325-1', '3101201213251', 'th_vat'],
  ['TR', '4540536920', '4540536920', 'tr_tin'],
  ['TW', '00501503', '00501503', 'tw_vat'],
  ['US', '12-3456789', '123456789', 'us_ein'],
  ['UY', '21-100342-001-7', '211003420017', 'uy_ruc'],
  ['VE', 'V-11470283-4', 'V114702834', 've_rif'],
  ['VN', '0100233488', '0100233488', 'vn_tin'],
  ['ZA', '499 9999 999', '4999999999', 'za_vat'],
  // formats stdnum lacks: their known shape (docs/tax.md#tax-ids)
  ['AE', '100-1234-5678-9012', '100123456789012', 'ae_trn'],
  ['GE', 'GE 123456789', 'GE123456789', 'ge_vat'],
  ['HK', '1234567(8)', '12345678', 'hk_br'],
  ['JP', 'T5835678256246', 'T5835678256246', 'jp_trn'],
  ['MU', '20123456', '20123456', 'mu_tan'],
];

/** Formats with no check but "four or more letters and digits": one example each, with its country. */
const ANY_SHAPE: [string, string][] = [
  ['AU', 'au_arn'],
  ['BH', 'bh_vat'],
  ['BO', 'bo_tin'],
  ['CA', 'ca_pst_mb'],
  ['CA', 'ca_pst_sk'],
  ['JP', 'jp_rn'],
  ['KZ', 'kz_bin'],
  ['LI', 'li_uid'],
  ['MY', 'my_frp'],
  ['MY', 'my_itn'],
  ['MY', 'my_sst'],
  ['NG', 'ng_tin'],
  ['NO', 'no_voec'],
  ['OM', 'om_vat'],
  ['PH', 'ph_tin'],
  ['RU', 'ru_kpp'],
  ['SA', 'sa_vat'],
  ['SG', 'sg_gst'],
  ['UA', 'ua_vat'],
];

/** The last digit of the number changed, so its check digit no longer matches. */
function corrupt(value: string): string {
  const at = value.search(/\d(?=\D*$)/);
  return value.slice(0, at) + String((Number(value[at]) + 1) % 10) + value.slice(at + 1);
}

describe('parseTaxId: a real number of every format', () => {
  it.each(VALID)('%s %s → %s (%s)', (country, typed, stored, format) => {
    expect(parseTaxId(typed, country)).toEqual([stored, format]);
  });

  it('covers every format of every country', () => {
    const tested = new Set([...VALID.map(([c, , , f]) => `${c}:${f}`), ...ANY_SHAPE.map(([c, f]) => `${c}:${f}`)]);
    const untested = Object.entries(TAX_ID_FORMATS)
      .flatMap(([country, formats]) => formats.map(format => `${country}:${format}`))
      .filter(key => !tested.has(key));
    expect(untested).toEqual([]);
  });
});

/**
 * Formats whose number ends with no check digit: the shape-only ones, the ones without a checksum
 * (AD, CR, EG, IS, KE, US, ZA) and the ones with a suffix after it (CA's RT0001, TQ0001 and PST's
 * digits, EC's establishment, ID's branch, NL's B01).
 */
const NO_TRAILING_CHECK_DIGIT = new Set([
  ...['ae_trn', 'ge_vat', 'hk_br', 'jp_trn', 'mu_tan'],
  ...['ad_nrt', 'cr_tin', 'eg_tin', 'is_vat', 'ke_pin', 'us_ein', 'za_vat'],
  ...['ca_gst_hst', 'ca_qst', 'ca_pst_bc', 'ec_ruc', 'id_npwp'],
]);

describe('parseTaxId: the same number with a wrong check digit', () => {
  const checked = VALID.filter(([country, , , format]) => !NO_TRAILING_CHECK_DIGIT.has(format) && country !== 'NL');
  it.each(checked)('%s %s, changed, is refused', (country, typed) => {
    expect(() => parseTaxId(corrupt(typed), country)).toThrow();
  });
});

describe('parseTaxId: formats without a checksum in the library', () => {
  const shapeOnly = new Set(ANY_SHAPE.map(([, format]) => format));

  it.each(ANY_SHAPE)('%s tries %s after every format it can check', (country, format) => {
    const formats = TAX_ID_FORMATS[country]!;
    expect(formats.slice(formats.indexOf(format)).every(f => shapeOnly.has(f))).toBe(true);
  });

  it('takes four or more letters and digits for the first of them, and nothing shorter', () => {
    expect(parseTaxId('ab-12 34', 'BH')).toEqual(['AB1234', 'bh_vat']);
    expect(parseTaxId('123456789012', 'KZ')).toEqual(['123456789012', 'kz_bin']);
    expect(() => parseTaxId('A1', 'BH')).toThrow('Invalid tax ID.');
  });
});
