import { DomainError } from '../../errors.js';
import { parseTaxId, TAX_ID_FORMATS } from '../tax-id.js';
import { FORMAT_CHECKS } from '../tax-id-formats.js';

/** The 422 item parseTaxId throws, or null when it accepts. */
function refusal(value: string, country: string | null, loc?: (string | number)[]) {
  try {
    parseTaxId(value, country, loc);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const domain = error as DomainError;
    expect(domain.status).toBe(422);
    return (domain.details as { type: string; loc: unknown; msg: string; input: unknown }[])[0];
  }
}

describe('parseTaxId: format and checksum (stdnum)', () => {
  it.each([
    ['FR 61 954 506 077', 'FR', 'FR61954506077', 'eu_vat'],
    ['61954506077', 'FR', 'FR61954506077', 'eu_vat'], // the prefix may be left out
    ['DE 136 695 976', 'DE', 'DE136695976', 'eu_vat'],
    ['NL004495445B01', 'NL', 'NL004495445B01', 'eu_vat'],
    ['ATU13585627', 'AT', 'ATU13585627', 'eu_vat'],
    ['BE0403170701', 'be', 'BE0403170701', 'eu_vat'],
    ['IT00743110157', 'IT', 'IT00743110157', 'eu_vat'],
    ['ESB58378431', 'ES', 'ESB58378431', 'eu_vat'],
    ['PL5260250274', 'PL', 'PL5260250274', 'eu_vat'],
    ['IE6388047V', 'IE', 'IE6388047V', 'eu_vat'],
    ['EL094259216', 'GR', 'EL094259216', 'eu_vat'],
    ['GR094259216', 'GR', 'EL094259216', 'eu_vat'], // Greece's prefix is EL; GR is understood
    ['GB980780684', 'GB', '980780684', 'gb_vat'],
    ['91-1144442', 'US', '911144442', 'us_ein'],
    ['51 824 753 556', 'AU', '51824753556', 'au_abn'],
    ['123456782', 'CA', '123456782', 'ca_bn'],
    ['123456782RT0001', 'CA', '123456782RT0001', 'ca_gst_hst'],
    ['CHE-116.281.710', 'CH', 'CHE116281710', 'ch_uid'],
    ['CHE-116.281.710 MWST', 'CH', 'CHE116281710MWST', 'ch_vat'],
    ['NO 995 525 828 MVA', 'NO', '995525828MVA', 'no_vat'],
    ['27AAPFU0939F1ZV', 'IN', '27AAPFU0939F1ZV', 'in_gst'],
    ['11.222.333/0001-81', 'BR', '11222333000181', 'br_cnpj'],
    ['111.444.777-35', 'BR', '11144477735', 'br_cpf'],
    ['GODE561231GR8', 'MX', 'GODE561231GR8', 'mx_rfc'],
    ['5-8356-7825-6246', 'JP', '5835678256246', 'jp_cn'],
    ['T5835678256246', 'JP', 'T5835678256246', 'jp_trn'],
    ['116-82-00276', 'KR', '1168200276', 'kr_brn'],
    ['04595257', 'TW', '04595257', 'tw_vat'],
    ['00000005', 'TW', '00000005', 'tw_vat'], // weighted sum divisible by 5: valid since 2023
    ['1793213150001', 'EC', '1793213150001', 'ec_ruc'],
    ['100123456789012', 'AE', '100123456789012', 'ae_trn'],
    ['12345678', 'HK', '12345678', 'hk_br'],
  ])('%s in %s → [%s, %s]', (value, country, stored, format) => {
    expect(parseTaxId(value, country)).toEqual([stored, format]);
  });

  it.each([
    ['FR61954506078', 'FR'],
    ['DE136695977', 'DE'],
    ['NL004495446B01', 'NL'],
    ['EL094259217', 'GR'],
    ['GB980780685', 'GB'],
    ['51824753557', 'AU'], // an ABN's checksum fails: not taken for an ARN instead
    ['123456783', 'CA'],
    ['001144442', 'US'], // no such EIN prefix
    ['11.222.333/0001-82', 'BR'],
    ['12345679', 'TW'],
    ['1234567', 'HK'],
    ['XX', 'FR'],
    ['DE000', 'FR'],
    ['123456789', 'AQ'], // a country without tax ids
  ])('%s in %s is "Invalid tax ID."', (value, country) => {
    expect(refusal(value, country)).toEqual({
      type: 'value_error',
      loc: ['body', 'tax_id'],
      msg: 'Invalid tax ID.',
      input: value,
    });
  });

  it.each([
    ['DE136695976', 'FR'],
    ['FR61954506077', 'DE'],
    ['GB980780684', 'FR'],
    ['DE136695976', 'GB'],
    ['DE 136 695 976', 'US'],
    ['CHE-116.281.710', 'AT'],
  ])('%s with a %s billing address does not match the billing country', (value, country) => {
    expect(refusal(value, country, ['body', 'customer_tax_id'])).toEqual({
      type: 'value_error',
      loc: ['body', 'customer_tax_id'],
      msg: 'Tax ID does not match the billing country.',
      input: value,
    });
  });

  it('needs the billing country', () => {
    expect(refusal('FR61954506077', null)?.msg).toBe('Country must be set in billing address to validate tax ID.');
  });

  it('has a check for every format a country can take', () => {
    for (const [country, formats] of Object.entries(TAX_ID_FORMATS))
      for (const format of formats) {
        if (format !== 'eu_vat')
          expect([country, format, typeof FORMAT_CHECKS[format]]).toEqual([country, format, 'function']);
      }
  });
});
