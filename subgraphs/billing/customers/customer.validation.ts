import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { CustomerType } from '../shared/enums.js';
import { metadataIssues } from '../shared/metadata.js';

/** Subscriptions import the metadata rule from here; it lives in shared/metadata.ts. */

/**
 * Business rules on customer fields, checked in the subgraph so GraphQL clients get the answers REST
 * clients get (whose bodies the adapter has already shape-checked with the same limits).
 */
export const CUSTOMER_NAME_MAX_LENGTH = 256;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CustomerFieldsToCheck {
  type?: string | null;
  email?: string | null;
  name?: string | null;
  metadata?: unknown;
  country?: string | null;
  /** Whether the (resulting) customer must have an e-mail: individuals must. */
  emailRequired?: boolean;
}

export function checkCustomerFields(fields: CustomerFieldsToCheck): void {
  const issues: ValidationIssue[] = [];
  if (fields.type != null && !(Object.values(CustomerType) as string[]).includes(fields.type)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'type'],
      msg: "Input should be 'individual' or 'team'",
      input: fields.type,
    });
  }
  if (fields.email != null && !EMAIL.test(fields.email)) {
    issues.push({
      type: 'value_error',
      loc: ['body', 'email'],
      msg: 'value is not a valid email address',
      input: fields.email,
    });
  }
  if (fields.emailRequired && !fields.email) {
    issues.push({ type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: null });
  }
  if (fields.name != null && fields.name.length > CUSTOMER_NAME_MAX_LENGTH) {
    issues.push({
      type: 'string_too_long',
      loc: ['body', 'name'],
      msg: `String should have at most ${CUSTOMER_NAME_MAX_LENGTH} characters`,
      input: fields.name,
      ctx: { max_length: CUSTOMER_NAME_MAX_LENGTH },
    });
  }
  if (fields.metadata != null) issues.push(...metadataIssues(fields.metadata));
  if (fields.country != null && !/^[A-Z]{2}$/.test(fields.country)) {
    issues.push({
      type: 'literal_error',
      loc: ['body', 'billing_address', 'country'],
      msg: 'Input should be an ISO 3166-1 alpha-2 country code',
      input: fields.country,
    });
  }
  if (issues.length) throw new PolarRequestValidationError(issues);
}
