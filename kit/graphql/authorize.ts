import { InsufficientScope, Unauthorized } from '../errors.js';
import { hasAnyScope, type Principal, type SubjectKind } from '../principal.js';

export interface AccessRule {
  /** Subject kinds the operation accepts; any other kind is treated as anonymous (→ 401). */
  subjects: readonly SubjectKind[];
  /** Any-of: one of these scopes suffices (a `:write` also grants its `:read`). Empty = no scope needed. */
  scopes: readonly string[];
}

/**
 * A Core API rule (docs/polar/auth.md#bearer-resolution): users and organizations acting within their organizations,
 * any one of `scopes`. A customer session is not a Core API caller: `authorize` answers it 401 on
 * these operations (it reads billing data only through Customer Portal rules).
 */
export function coreApiRule(...scopes: string[]): AccessRule {
  return { subjects: ['user', 'organization'], scopes };
}

/** A Customer Portal rule: only a customer session (the customer itself), any one of `scopes`. */
export function customerPortalRule(...scopes: string[]): AccessRule {
  return { subjects: ['customer'], scopes };
}

/**
 * The per-operation check of docs/polar/auth.md#bearer-resolution step 3, applied inside every resolver so GraphQL
 * clients get exactly the rules REST clients get.
 */
export function authorize(principal: Principal, rule: AccessRule): void {
  if (!rule.subjects.includes(principal.subject)) {
    if (rule.subjects.includes('anonymous')) return;
    throw new Unauthorized();
  }
  if (principal.subject === 'anonymous') return;
  if (rule.scopes.length > 0 && !hasAnyScope(principal, rule.scopes)) {
    throw new InsufficientScope(rule.scopes);
  }
}
