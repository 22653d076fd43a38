import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';

/** Throws every collected issue at once (one 422), or nothing when there are none. */
export function throwIfAny(issues: ValidationIssue[]): void {
  if (issues.length) throw new PolarRequestValidationError(issues);
}
