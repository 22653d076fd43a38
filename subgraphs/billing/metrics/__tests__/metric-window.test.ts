import {
  daysBetween,
  isTimeZone,
  isUnderLimits,
  metricWindow,
  monthlyAmount,
  monthlyAmountSql,
  periodTimestamp,
} from '../metric-window.js';

describe('the interval limits (Polar’s is_under_limits)', () => {
  it('allows up to the interval’s max_days and refuses a start after the end', () => {
    expect(daysBetween('2028-01-01', '2028-12-31')).toBe(365);
    expect(isUnderLimits('2028-01-01', '2029-01-01', 'day')).toBe(true); // 366 days
    expect(isUnderLimits('2028-01-01', '2029-01-02', 'day')).toBe(false);
    expect(isUnderLimits('2028-03-01', '2028-03-08', 'hour')).toBe(true);
    expect(isUnderLimits('2028-03-01', '2028-03-09', 'hour')).toBe(false);
    expect(isUnderLimits('2028-03-02', '2028-03-01', 'month')).toBe(false);
    expect(isUnderLimits('2020-01-01', '2029-12-28', 'year')).toBe(true);
  });
});

describe('the window of a request', () => {
  it('starts the series at the start of the week (Monday), month or year, and bounds it by the dates asked', () => {
    expect(metricWindow('2028-03-15', '2028-04-02', 'week', 'UTC')).toEqual({
      interval: 'week',
      timezone: 'UTC',
      seriesStart: '2028-03-13 00:00:00',
      seriesEnd: '2028-04-02 23:59:59.999999',
      boundStart: '2028-03-15 00:00:00',
      boundEnd: '2028-04-02 23:59:59.999999',
    });
    expect(metricWindow('2028-03-15', '2028-06-01', 'month', 'UTC').seriesStart).toBe('2028-03-01 00:00:00');
    expect(metricWindow('2028-03-15', '2030-06-01', 'year', 'UTC').seriesStart).toBe('2028-01-01 00:00:00');
    expect(metricWindow('2028-03-15', '2028-03-16', 'day', 'UTC').seriesStart).toBe('2028-03-15 00:00:00');
    expect(metricWindow('2028-03-12', '2028-03-16', 'week', 'UTC').seriesStart).toBe('2028-03-06 00:00:00'); // a Sunday
  });

  it('writes a period’s timestamp with its zone’s offset at that instant, Z when it is zero', () => {
    expect(periodTimestamp('2028-01-01 00:00:00', new Date('2028-01-01T00:00:00Z'))).toBe('2028-01-01T00:00:00Z');
    expect(periodTimestamp('2028-01-01 00:00:00', new Date('2027-12-31T11:00:00Z'))).toBe('2028-01-01T00:00:00+13:00');
    expect(periodTimestamp('2028-07-01 00:00:00', new Date('2028-07-01T04:00:00Z'))).toBe('2028-07-01T00:00:00-04:00');
    expect(periodTimestamp('2028-01-01 00:00:00', new Date('2027-12-31T18:30:00Z'))).toBe('2028-01-01T00:00:00+05:30');
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('monthly normalisation', () => {
  it('takes a year as 12 months, a week as 52/12 of one, a day as 365/12, per interval count, halves away from zero', () => {
    expect(monthlyAmount(1000n, 'month', 1)).toBe(1000n);
    expect(monthlyAmount(3000n, 'month', 3)).toBe(1000n);
    expect(monthlyAmount(10000n, 'year', 1)).toBe(833n); // 833.33
    expect(monthlyAmount(10010n, 'year', 1)).toBe(834n); // 834.17
    expect(monthlyAmount(6n, 'year', 1)).toBe(1n); // 0.5 → 1
    expect(monthlyAmount(100n, 'week', 1)).toBe(433n); // 433.33
    expect(monthlyAmount(100n, 'week', 2)).toBe(217n); // 216.67
    expect(monthlyAmount(100n, 'day', 1)).toBe(3042n); // 3041.67
  });

  it('is the same table in SQL', () => {
    const sql = monthlyAmountSql('a', 'i', 'c');
    expect(sql).toContain("when 'year' then round((a)::numeric * 1 / (12 * c))");
    expect(sql).toContain("when 'week' then round((a)::numeric * 52 / (12 * c))");
    expect(sql).toContain("when 'day' then round((a)::numeric * 365 / (12 * c))");
    expect(sql).toContain("when 'month' then round((a)::numeric * 1 / (1 * c))");
  });
});
