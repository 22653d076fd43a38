/**
 * Every id the service hands out is a UUID, and PostgreSQL compares ids as `uuid`: a value that is not
 * one is refused or passed over before it reaches a query, where the cast would be an internal error.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in its canonical text form (any version, either case). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
