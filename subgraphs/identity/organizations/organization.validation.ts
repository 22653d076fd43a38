import { isCountryCode } from '../../../kit/countries.js';
import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';

/**
 * Business rules on organization fields, checked in the subgraph so GraphQL clients get the same
 * answers as REST clients (whose bodies the adapter has already shape-checked).
 */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const PRORATION_BEHAVIORS = ['invoice', 'prorate', 'next_period', 'reset'] as const;
export const TAX_BEHAVIORS = ['location', 'inclusive', 'exclusive'] as const;
export const SOCIAL_PLATFORMS = [
  'x',
  'github',
  'facebook',
  'instagram',
  'youtube',
  'tiktok',
  'linkedin',
  'threads',
  'discord',
  'other',
] as const;

/** A country that is not an assigned ISO 3166-1 alpha-2 code (kit/countries.ts), at `loc`. */
export const countryIssue = (loc: (string | number)[], input: unknown): ValidationIssue => ({
  type: 'enum',
  loc,
  msg: 'Input should be an ISO 3166-1 alpha-2 country code',
  input,
});

export interface OrganizationFieldsToCheck {
  name?: string | null;
  slug?: string | null;
  defaultTaxBehavior?: string | null;
  country?: string | null;
  prorationBehavior?: string | null;
  prorationBehaviorUpgrade?: string | null;
  prorationBehaviorDowngrade?: string | null;
  resetProrationAllowed?: boolean;
}

/** Throws every issue of `fields`, with `more` (the tax settings' issues), as one 422. */
export function checkOrganizationFields(fields: OrganizationFieldsToCheck, more: ValidationIssue[] = []): void {
  const issues: ValidationIssue[] = [];
  if (fields.name != null && fields.name.trim().length < 3) {
    issues.push({
      type: 'string_too_short',
      loc: ['body', 'name'],
      msg: 'String should have at least 3 characters',
      input: fields.name,
      ctx: { min_length: 3 },
    });
  }
  if (fields.slug != null) {
    if (fields.slug.length < 3 || fields.slug.length > 64) {
      issues.push({
        type: fields.slug.length < 3 ? 'string_too_short' : 'string_too_long',
        loc: ['body', 'slug'],
        msg: `String should have ${fields.slug.length < 3 ? 'at least 3' : 'at most 64'} characters`,
        input: fields.slug,
      });
    } else if (!SLUG_PATTERN.test(fields.slug)) {
      issues.push({
        type: 'value_error',
        loc: ['body', 'slug'],
        msg: 'Slug may only contain lowercase letters, digits and hyphens, and must start with a letter or digit.',
        input: fields.slug,
      });
    }
  }
  if (fields.defaultTaxBehavior != null && !(TAX_BEHAVIORS as readonly string[]).includes(fields.defaultTaxBehavior)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'default_tax_behavior'],
      msg: `Input should be ${TAX_BEHAVIORS.map(v => `'${v}'`).join(', ')}`,
      input: fields.defaultTaxBehavior,
    });
  }
  if (fields.country != null && !isCountryCode(fields.country))
    issues.push(countryIssue(['body', 'country'], fields.country));
  const allowed = fields.resetProrationAllowed ? PRORATION_BEHAVIORS : PRORATION_BEHAVIORS.filter(p => p !== 'reset');
  const behaviors = [
    ['proration_behavior', fields.prorationBehavior],
    ['proration_behavior_upgrade', fields.prorationBehaviorUpgrade],
    ['proration_behavior_downgrade', fields.prorationBehaviorDowngrade],
  ] as const;
  for (const [key, value] of behaviors) {
    if (value != null && !(allowed as readonly string[]).includes(value)) {
      issues.push({
        type: 'enum',
        loc: ['body', 'subscription_settings', key],
        msg: `Input should be ${allowed.map(v => `'${v}'`).join(', ')}`,
        input: value,
      });
    }
  }
  issues.push(...more);
  if (issues.length) throw new PolarRequestValidationError(issues);
}
