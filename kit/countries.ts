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

/**
 * The subdivisions a tax registration may name (ISO 3166-2 without the country prefix): the US states
 * and the District of Columbia, and Canada's provinces and territories. Other countries are taxed as a
 * whole here.
 */
export const SUBDIVISION_CODES: Readonly<Record<string, readonly string[]>> = {
  US: `AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH
       OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC`.split(/\s+/),
  CA: 'AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '),
};

/**
 * `state` of `country` without its prefix (`US-CA` and `CA` → `CA`), or null when the country has no
 * subdivisions here or the code is not one of them.
 */
export function subdivisionCode(country: string, state: string): string | null {
  const codes = SUBDIVISION_CODES[country];
  if (!codes) return null;
  const code = state.startsWith(`${country}-`) ? state.slice(country.length + 1) : state;
  return codes.includes(code) ? code : null;
}
