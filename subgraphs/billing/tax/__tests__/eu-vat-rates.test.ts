import { EU_VAT_PREFIXES } from '../../../../kit/tax/eu-member-states.js';
import { EU_VAT, euStandardRate } from '../eu-vat-rates.js';

const on = (day: string) => new Date(`${day}T12:00:00Z`);

describe('EU VAT rates as data', () => {
  it('has the 27 member states, each history oldest first with a source', () => {
    expect(EU_VAT).toHaveLength(27);
    expect(EU_VAT.map(s => s.country).sort()).toEqual(Object.keys(EU_VAT_PREFIXES).sort());
    for (const state of EU_VAT) {
      const days = state.rates.map(r => r.from);
      expect([...days].sort()).toEqual(days);
      expect(days[0]).toBe('2020-01-01');
      for (const rate of state.rates) {
        expect(rate.source.length).toBeGreaterThan(10);
        expect(Number.isInteger(rate.basisPoints)).toBe(true);
      }
    }
  });

  it.each([
    ['DE', '2025-06-01', 1900],
    ['DE', '2020-10-01', 1600],
    ['FR', '2025-06-01', 2000],
    ['HU', '2025-06-01', 2700],
    ['LU', '2023-06-01', 1600],
    ['LU', '2024-01-01', 1700],
    ['EE', '2024-12-31', 2200],
    ['EE', '2025-06-30', 2200],
    ['EE', '2025-07-01', 2400],
    ['FI', '2024-08-31', 2400],
    ['FI', '2024-09-01', 2550],
    ['SK', '2024-12-31', 2000],
    ['SK', '2025-01-01', 2300],
    ['RO', '2025-07-31', 1900],
    ['RO', '2025-08-01', 2100],
    ['IE', '2021-01-15', 2100],
    ['IE', '2021-03-01', 2300],
    ['gr', '2025-06-01', 2400],
    ['DE', '2000-01-01', 1900],
  ])('%s on %s: %i bp', (country, day, bp) => {
    expect(euStandardRate(country, on(day))?.basisPoints).toBe(bp);
  });

  it('reads the date in UTC: the change applies from midnight UTC', () => {
    expect(euStandardRate('EE', new Date('2025-06-30T23:59:59Z'))?.basisPoints).toBe(2200);
    expect(euStandardRate('EE', new Date('2025-07-01T00:00:00Z'))?.basisPoints).toBe(2400);
  });

  it('knows nothing outside the EU (GB, Northern Ireland, Switzerland, the US)', () => {
    for (const country of ['GB', 'XI', 'CH', 'US', 'NO']) expect(euStandardRate(country, on('2025-06-01'))).toBeNull();
  });
});
