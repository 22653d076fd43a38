/**
 * Whether an ISO date or date-time names a real day of the years 1-9999. zod's pattern accepts
 * 2023-02-30 and year 0000, which PostgreSQL refuses (a 500 if they got that far); pydantic does not.
 * Offsets beyond ±15:59 are not a concern here: the value reaches the database as an instant.
 * Used by the edge's date schemas and by billing's ingest, which reads its batch itself (docs/usage-events.md).
 */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()))
    return false;
  // Its offset must not carry the instant out of those years either (9999-12-31T23:00-05:00).
  const instant = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  const utcYear = instant.getUTCFullYear();
  return !Number.isNaN(instant.getTime()) && utcYear >= 1 && utcYear <= 9999;
}
