import { countryOfVatPrefix, EU_VAT_PREFIXES, isEuMemberState, vatPrefixOf } from '../eu-member-states.js';

describe('EU member states and their VAT prefixes', () => {
  it('has 27 member states', () => {
    expect(Object.keys(EU_VAT_PREFIXES)).toHaveLength(27);
  });

  it('treats Great Britain, Northern Ireland and the EFTA states as outside', () => {
    for (const country of ['GB', 'XI', 'CH', 'NO', 'IS', 'LI', 'US']) expect(isEuMemberState(country)).toBe(false);
    expect(isEuMemberState(null)).toBe(false);
    expect(isEuMemberState('de')).toBe(true);
  });

  it("spells Greece's VAT prefix EL", () => {
    expect(vatPrefixOf('GR')).toBe('EL');
    expect(countryOfVatPrefix('EL')).toBe('GR');
    expect(countryOfVatPrefix('GR')).toBeNull();
    expect(vatPrefixOf('fr')).toBe('FR');
    expect(vatPrefixOf('GB')).toBeNull();
  });
});
