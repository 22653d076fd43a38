/**
 * ISO 8601 durations as Polar accepts them for `expires_in` (`P30D`, `PT12H`, `P1Y2M`, `P2W`).
 * Years and months are calendar units: they are added to a date, not converted to seconds.
 */
export interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const PATTERN = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

export function parseDuration(text: string): Duration | null {
  const match = PATTERN.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return null;
  const [, y, mo, w, d, h, mi, s] = match.map(v => (v === undefined ? 0 : Number(v)));
  return { years: y, months: mo, weeks: w, days: d, hours: h, minutes: mi, seconds: s };
}

export function addDuration(at: Date, duration: Duration): Date {
  const out = new Date(at.getTime());
  out.setUTCFullYear(out.getUTCFullYear() + duration.years);
  out.setUTCMonth(out.getUTCMonth() + duration.months);
  out.setUTCDate(out.getUTCDate() + duration.weeks * 7 + duration.days);
  return new Date(out.getTime() + ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000);
}
