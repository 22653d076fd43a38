/**
 * Country and subdivision codes the service accepts where Polar takes a `CountryAlpha2`: the officially
 * assigned ISO 3166-1 alpha-2 codes, upper case. A pattern alone (`^[A-Z]{2}$`) lets `XX` through, and a
 * seller's country decides its tax (docs/tax-settings.md), so an organization's codes are checked against the list.
 */
export const COUNTRY_CODES: readonly string[] = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ
LA LB LC LI LK LR LS LT LU LV LY
MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA
RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ
VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
`
  .trim()
  .split(/\s+/);

const COUNTRIES = new Set(COUNTRY_CODES);

/** Whether `value` is an assigned ISO 3166-1 alpha-2 code, as written (upper case). */
export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && COUNTRIES.has(value);
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** An English name of a country code (the code itself when the runtime knows none). */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The subdivisions a tax registration and a tax report name (ISO 3166-2 without the country prefix, with
 * their English names): the US states and the District of Columbia, and Canada's provinces and
 * territories. Other countries are taxed as a whole here.
 */
const SUBDIVISIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  US: {
    AL: 'Alabama',
    AK: 'Alaska',
    AZ: 'Arizona',
    AR: 'Arkansas',
    CA: 'California',
    CO: 'Colorado',
    CT: 'Connecticut',
    DE: 'Delaware',
    FL: 'Florida',
    GA: 'Georgia',
    HI: 'Hawaii',
    ID: 'Idaho',
    IL: 'Illinois',
    IN: 'Indiana',
    IA: 'Iowa',
    KS: 'Kansas',
    KY: 'Kentucky',
    LA: 'Louisiana',
    ME: 'Maine',
    MD: 'Maryland',
    MA: 'Massachusetts',
    MI: 'Michigan',
    MN: 'Minnesota',
    MS: 'Mississippi',
    MO: 'Missouri',
    MT: 'Montana',
    NE: 'Nebraska',
    NV: 'Nevada',
    NH: 'New Hampshire',
    NJ: 'New Jersey',
    NM: 'New Mexico',
    NY: 'New York',
    NC: 'North Carolina',
    ND: 'North Dakota',
    OH: 'Ohio',
    OK: 'Oklahoma',
    OR: 'Oregon',
    PA: 'Pennsylvania',
    RI: 'Rhode Island',
    SC: 'South Carolina',
    SD: 'South Dakota',
    TN: 'Tennessee',
    TX: 'Texas',
    UT: 'Utah',
    VT: 'Vermont',
    VA: 'Virginia',
    WA: 'Washington',
    WV: 'West Virginia',
    WI: 'Wisconsin',
    WY: 'Wyoming',
    DC: 'District of Columbia',
  },
  CA: {
    AB: 'Alberta',
    BC: 'British Columbia',
    MB: 'Manitoba',
    NB: 'New Brunswick',
    NL: 'Newfoundland and Labrador',
    NS: 'Nova Scotia',
    NT: 'Northwest Territories',
    NU: 'Nunavut',
    ON: 'Ontario',
    PE: 'Prince Edward Island',
    QC: 'Quebec',
    SK: 'Saskatchewan',
    YT: 'Yukon',
  },
};

/** Whether `country` is taxed by subdivision here (US, CA). */
export const hasSubdivisions = (country: string): boolean => Object.hasOwn(SUBDIVISIONS, country);

/**
 * `state` of `country` without its prefix (`US-CA` and `CA` → `CA`), or null when the country has no
 * subdivisions here or the code is not one of them.
 */
export function subdivisionCode(country: string, state: string): string | null {
  if (!hasSubdivisions(country)) return null;
  const code = state.startsWith(`${country}-`) ? state.slice(country.length + 1) : state;
  return Object.hasOwn(SUBDIVISIONS[country], code) ? code : null;
}

/** The English name of a subdivision (`US`, `CA` → California), or the code when unknown. */
export function subdivisionName(country: string, code: string): string {
  return (hasSubdivisions(country) && SUBDIVISIONS[country][code]) || code;
}
