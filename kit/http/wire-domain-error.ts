import {
  BadRequest,
  DomainError,
  InsufficientScope,
  InvalidToken,
  NotPermitted,
  PolarRequestValidationError,
  RequestValidationError,
  ResourceNotFound,
  Unauthorized,
  type ValidationIssue,
} from '../errors.js';
import type { WireDomainError } from './internal-auth.js';

/**
 * Domain errors across the internal hops of the distributed topology (the principal endpoint, the
 * signed JSON RPC of kit/http/signed-rpc.ts): `{code, message, status, details?}` on the wire, and the
 * same DomainError classes again on the caller's side, so `instanceof` checks and the adapter's wire
 * bodies are the same in both topologies.
 */

/** The wire form of a caller's error (a DomainError below 500); undefined for anything else. */
export function toWireDomainError(error: unknown): WireDomainError | undefined {
  if (!(error instanceof DomainError) || error.status >= 500) return undefined;
  const wire: WireDomainError = { code: error.code, message: error.message, status: error.status };
  if (error.details !== undefined) wire.details = error.details;
  return wire;
}

/**
 * The DomainError a 4xx answer carries, or undefined when the answer is not a caller's error (the
 * endpoint refusing our signature answers `UNAUTHENTICATED`: a deployment fault, not the caller's).
 */
export function fromWireDomainError(error: WireDomainError | undefined, status: number): DomainError | undefined {
  if (
    !error ||
    typeof error.code !== 'string' ||
    error.code === 'UNAUTHENTICATED' ||
    typeof error.message !== 'string' ||
    error.status !== status ||
    status < 400 ||
    status >= 500
  )
    return undefined;
  switch (error.code) {
    case 'invalid_token':
      return new InvalidToken();
    case 'insufficient_scope':
      return new InsufficientScope((error.details as { scopes?: string[] } | undefined)?.scopes ?? []);
    case 'Unauthorized':
      return new Unauthorized();
    case 'NotPermitted':
      return new NotPermitted(error.message);
    case 'ResourceNotFound':
      return new ResourceNotFound(error.message);
    case 'BadRequest':
      return new BadRequest(error.message);
    case 'PolarRequestValidationError':
      return new PolarRequestValidationError(issuesOf(error));
    case 'RequestValidationError':
      return new RequestValidationError(issuesOf(error));
    default:
      return new DomainError(error.code, error.message, error.status, error.details);
  }
}

function issuesOf(error: WireDomainError): ValidationIssue[] {
  return Array.isArray(error.details) ? (error.details as ValidationIssue[]) : [];
}
