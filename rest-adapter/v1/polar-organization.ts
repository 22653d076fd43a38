import { z } from 'zod';
import { actingFor } from '../../kit/database/tenant-scope.js';
import type { Principal } from '../../kit/principal.js';
import { parseOrThrow } from './validation.js';

/** The request header that narrows a call to one organization (docs/principals.md#polar-organization). */
export const POLAR_ORGANIZATION = 'Polar-Organization';

/** As FastAPI names a header parameter in a 422's `loc`: lower case. */
const HEADER_KEY = POLAR_ORGANIZATION.toLowerCase();
const HEADER = z.object({ [HEADER_KEY]: z.uuid() });

/**
 * The principal an API request acts as once its `Polar-Organization` header is read: a user narrowed to
 * that organization, an organization token checked against it (kit/database/tenant-scope.ts `actingFor`
 * decides both). The header is read for user and organization principals only; a customer session or
 * an anonymous caller gets no narrowing and no refusal from it, however it is spelled.
 * @throws RequestValidationError (422 at `header.polar-organization`) for a value that is not a UUID.
 * @throws NotPermitted (403) for an organization the principal cannot act for.
 */
export function principalOfRequest(principal: Principal, header: string | undefined): Principal {
  if (header === undefined || (principal.subject !== 'user' && principal.subject !== 'organization')) return principal;
  const parsed = parseOrThrow(HEADER, 'header', { [HEADER_KEY]: header }) as Record<string, string>;
  // Ids are stored in lower case: an upper-case spelling names the same organization.
  return actingFor(principal, parsed[HEADER_KEY].toLowerCase());
}
