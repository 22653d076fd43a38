/*
 * Places that belong to a member state but lie outside the EU VAT area, found by the country and
 * postal code of an address. A buyer there pays no EU VAT (`not_subject_to_tax`).
 *
 * The list of territories is Article 6 of Council Directive 2006/112/EC (the VAT Directive); the
 * postal codes are those of each member state's postal operator. Territories with an ISO country
 * code of their own (Réunion RE, Guadeloupe GP, Åland AX, the Faroe Islands FO…) need no entry: their
 * code is not a member state's, so the calculator already treats them as outside the EU.
 */

export interface SpecialTerritory {
  country: string;
  name: string;
  /** Postal codes: a string is an exact code, a prefix ends with `*`. */
  postalCodes: readonly string[];
  source: string;
}

const ARTICLE_6 = 'Council Directive 2006/112/EC (VAT Directive), Article 6';

export const EU_SPECIAL_TERRITORIES: readonly SpecialTerritory[] = [
  {
    country: 'ES',
    name: 'Canary Islands',
    postalCodes: ['35*', '38*'],
    source: `${ARTICLE_6}(1); Correos: provinces of Las Palmas (35) and Santa Cruz de Tenerife (38)`,
  },
  { country: 'ES', name: 'Ceuta', postalCodes: ['51*'], source: `${ARTICLE_6}(2); Correos: Ceuta (51)` },
  { country: 'ES', name: 'Melilla', postalCodes: ['52*'], source: `${ARTICLE_6}(2); Correos: Melilla (52)` },
  {
    country: 'FI',
    name: 'Åland Islands',
    postalCodes: ['22*'],
    source: `${ARTICLE_6}(1); Posti: Åland (22xxx)`,
  },
  {
    country: 'DE',
    name: 'Büsingen am Hochrhein',
    postalCodes: ['78266'],
    source: `${ARTICLE_6}(2); Deutsche Post: Büsingen 78266`,
  },
  {
    country: 'DE',
    name: 'Heligoland',
    postalCodes: ['27498'],
    source: `${ARTICLE_6}(2); Deutsche Post: Helgoland 27498`,
  },
  {
    country: 'IT',
    name: 'Livigno',
    postalCodes: ['23041'],
    source: `${ARTICLE_6}(2); Poste Italiane: Livigno 23041`,
  },
  {
    country: 'IT',
    name: "Campione d'Italia",
    postalCodes: ['22061'],
    source: `${ARTICLE_6}(2); Poste Italiane: Campione d'Italia 22061`,
  },
  {
    country: 'GR',
    name: 'Mount Athos',
    postalCodes: ['63086', '63087'],
    source: `${ARTICLE_6}(1); ELTA: Karyes and the Athos peninsula 63086, 63087`,
  },
  {
    country: 'FR',
    name: 'French overseas departments',
    // Guadeloupe (with Saint-Barthélemy and Saint-Martin) 971, Martinique 972, French Guiana 973,
    // Réunion 974, Mayotte 976, addresses written with country FR; Saint-Pierre-et-Miquelon 975 and
    // Saint-Barthélemy (97133) are overseas territories outside the EU altogether, so also outside its VAT.
    postalCodes: ['971*', '972*', '973*', '974*', '975*', '976*'],
    source: `${ARTICLE_6}(1) and Article 349 TFEU; La Poste: overseas postal codes 971xx to 976xx`,
  },
];

/** `AX-22100`, ` 630 86 ` → `22100`, `63086`: the digits of a postal code, which is all that is matched. */
function digitsOf(postalCode: string): string {
  return postalCode.replace(/\D/g, '');
}

function matches(code: string, pattern: string): boolean {
  return pattern.endsWith('*') ? code.startsWith(pattern.slice(0, -1)) : code === pattern;
}

/** The special territory an address is in, or null (also when it has no postal code). */
export function specialTerritoryOf(country: string, postalCode: string | null | undefined): SpecialTerritory | null {
  if (!postalCode) return null;
  const code = digitsOf(postalCode);
  const upper = country.toUpperCase();
  return (
    EU_SPECIAL_TERRITORIES.find(t => t.country === upper && t.postalCodes.some(pattern => matches(code, pattern))) ??
    null
  );
}
