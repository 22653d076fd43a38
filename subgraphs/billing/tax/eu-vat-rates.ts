/*
 * The standard VAT rate of each EU member state, as data, with the date each rate took effect and
 * where the figure comes from (docs/tax.md#updating-the-rates). Rates are basis points (1900 = 19 %,
 * 2550 = 25.5 %) so that fractional rates stay integers. The history starts on 2020-01-01: the first
 * entry of a country is the rate in force that day (and, for every member state, for years before).
 *
 * Only the standard rate: digital services, which this service sells, are taxed at it everywhere.
 */

/** One rate of one member state, in force from `from` (inclusive, UTC day) until the next entry. */
export interface VatRatePeriod {
  /** `YYYY-MM-DD`, the first day the rate applies. */
  from: string;
  basisPoints: number;
  source: string;
}

export interface MemberStateVat {
  /** ISO 3166-1 alpha-2 code of the member state (kit/tax/eu-member-states.ts has the list). */
  country: string;
  /** Oldest first. */
  rates: readonly VatRatePeriod[];
}

const EC_2025 =
  'European Commission, "VAT rates applied in the Member States of the European Union", situation at 1 January 2025';
const EC_2020 =
  'European Commission, "VAT rates applied in the Member States of the European Union", situation at 1 January 2020';

/** A member state whose standard rate has not changed since the table starts. */
function unchanged(country: string, basisPoints: number): MemberStateVat {
  return { country, rates: [{ from: '2020-01-01', basisPoints, source: EC_2025 }] };
}

export const EU_VAT: readonly MemberStateVat[] = [
  unchanged('AT', 2000),
  unchanged('BE', 2100),
  unchanged('BG', 2000),
  unchanged('CY', 1900),
  unchanged('CZ', 2100),
  {
    country: 'DE',
    rates: [
      { from: '2020-01-01', basisPoints: 1900, source: EC_2020 },
      {
        from: '2020-07-01',
        basisPoints: 1600,
        source: 'Zweites Corona-Steuerhilfegesetz (BGBl. I 2020 S. 1512): 16 % from 1 July to 31 December 2020',
      },
      { from: '2021-01-01', basisPoints: 1900, source: EC_2025 },
    ],
  },
  unchanged('DK', 2500),
  {
    country: 'EE',
    rates: [
      { from: '2020-01-01', basisPoints: 2000, source: EC_2020 },
      { from: '2024-01-01', basisPoints: 2200, source: EC_2025 },
      {
        from: '2025-07-01',
        basisPoints: 2400,
        source: 'Estonian VAT Act (Käibemaksuseadus) as amended in 2024: 24 % from 1 July 2025',
      },
    ],
  },
  unchanged('ES', 2100),
  {
    country: 'FI',
    rates: [
      { from: '2020-01-01', basisPoints: 2400, source: EC_2020 },
      {
        from: '2024-09-01',
        basisPoints: 2550,
        source: `Finnish VAT Act (Arvonlisäverolaki) as amended in 2024: 25.5 % from 1 September 2024; ${EC_2025}`,
      },
    ],
  },
  unchanged('FR', 2000),
  unchanged('GR', 2400),
  unchanged('HR', 2500),
  unchanged('HU', 2700),
  {
    country: 'IE',
    rates: [
      { from: '2020-01-01', basisPoints: 2300, source: EC_2020 },
      {
        from: '2020-09-01',
        basisPoints: 2100,
        source: 'Irish Revenue, July 2020 stimulus: 21 % from 1 September 2020 to 28 February 2021',
      },
      { from: '2021-03-01', basisPoints: 2300, source: EC_2025 },
    ],
  },
  unchanged('IT', 2200),
  unchanged('LT', 2100),
  {
    country: 'LU',
    rates: [
      { from: '2020-01-01', basisPoints: 1700, source: EC_2020 },
      {
        from: '2023-01-01',
        basisPoints: 1600,
        source: 'Luxembourg, temporary one-point reduction for 2023 (Solidaritéitspak 2.0): 16 % in 2023',
      },
      { from: '2024-01-01', basisPoints: 1700, source: EC_2025 },
    ],
  },
  unchanged('LV', 2100),
  unchanged('MT', 1800),
  unchanged('NL', 2100),
  unchanged('PL', 2300),
  unchanged('PT', 2300),
  {
    country: 'RO',
    rates: [
      { from: '2020-01-01', basisPoints: 1900, source: EC_2025 },
      {
        from: '2025-08-01',
        basisPoints: 2100,
        source: 'Romanian Law 141/2025 amending the Fiscal Code: 21 % from 1 August 2025',
      },
    ],
  },
  unchanged('SE', 2500),
  unchanged('SI', 2200),
  {
    country: 'SK',
    rates: [
      { from: '2020-01-01', basisPoints: 2000, source: EC_2020 },
      { from: '2025-01-01', basisPoints: 2300, source: EC_2025 },
    ],
  },
];

const BY_COUNTRY: ReadonlyMap<string, MemberStateVat> = new Map(EU_VAT.map(state => [state.country, state]));

/**
 * The standard rate of a member state on a date (UTC), or null outside the EU. A date before the
 * table starts gets its first rate, which was in force then for every member state.
 */
export function euStandardRate(country: string, at: Date): VatRatePeriod | null {
  const state = BY_COUNTRY.get(country.toUpperCase());
  if (!state) return null;
  const day = at.toISOString().slice(0, 10);
  let current = state.rates[0]!;
  for (const period of state.rates) if (period.from <= day) current = period;
  return current;
}
