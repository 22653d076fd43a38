import { specialTerritoryOf } from '../eu-special-territories.js';

describe('special territories outside EU VAT, by postal code', () => {
  it.each([
    ['ES', '35001', 'Canary Islands'],
    ['ES', '38003', 'Canary Islands'],
    ['es', '51001', 'Ceuta'],
    ['ES', '52001', 'Melilla'],
    ['FI', 'AX-22100', 'Åland Islands'],
    ['FI', '22100', 'Åland Islands'],
    ['DE', '78266', 'Büsingen am Hochrhein'],
    ['DE', '27498', 'Heligoland'],
    ['IT', '23041', 'Livigno'],
    ['IT', '22061', "Campione d'Italia"],
    ['GR', '630 86', 'Mount Athos'],
    ['GR', '63087', 'Mount Athos'],
    ['FR', '97100', 'French overseas departments'],
    ['FR', '97400', 'French overseas departments'],
    ['FR', '97600', 'French overseas departments'],
  ])('%s %s is in %s', (country, postalCode, name) => {
    expect(specialTerritoryOf(country, postalCode)?.name).toBe(name);
  });

  it.each([
    ['ES', '28001'], // Madrid
    ['ES', '08001'], // Barcelona
    ['DE', '10115'], // Berlin
    ['DE', '78267'], // next to Büsingen
    ['FI', '00100'], // Helsinki
    ['IT', '23040'],
    ['FR', '75001'],
    ['FR', '98000'], // Monaco is inside French VAT
    ['GB', '35001'], // the postal code alone means nothing
    ['ES', null],
    ['ES', ''],
  ])('%s %s is inside EU VAT (or not an EU address)', (country, postalCode) => {
    expect(specialTerritoryOf(country, postalCode)).toBeNull();
  });

  it('cites a source for every territory', async () => {
    const { EU_SPECIAL_TERRITORIES } = await import('../eu-special-territories.js');
    for (const territory of EU_SPECIAL_TERRITORIES) expect(territory.source).toMatch(/2006\/112\/EC/);
  });
});
