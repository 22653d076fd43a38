import { addDuration, parseDuration } from '../duration.js';

describe('ISO 8601 durations', () => {
  const start = new Date('2026-01-31T10:00:00Z');
  it.each([
    ['P30D', '2026-03-02T10:00:00.000Z'],
    ['PT12H', '2026-01-31T22:00:00.000Z'],
    ['P1M', '2026-03-03T10:00:00.000Z'],
    ['P1Y', '2027-01-31T10:00:00.000Z'],
    ['P2W', '2026-02-14T10:00:00.000Z'],
    ['P1DT1H30M', '2026-02-01T11:30:00.000Z'],
    ['PT90S', '2026-01-31T10:01:30.000Z'],
  ])('%s after 2026-01-31T10:00Z is %s', (text, expected) => {
    const duration = parseDuration(text);
    expect(duration).not.toBeNull();
    expect(addDuration(start, duration!).toISOString()).toBe(expected);
  });

  it.each(['', 'P', 'PT', '30D', 'P-1D', 'P1.5D', 'one day'])('rejects %j', text => {
    expect(parseDuration(text)).toBeNull();
  });
});
