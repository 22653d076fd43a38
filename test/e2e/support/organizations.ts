import { createTenant, type Tenant, type TestStack } from '../../support/stack.js';
import { sharedTestStack } from '../../support/shared-stack.js';

/** Shared setup of the organizations e2e files: two tenants per file on the shared stack, and the helpers they share. */
export let stack: TestStack;
export let base: string;
export let alice: Tenant;
export let bob: Tenant;

/** Before this file's tests: the worker's shared stack (test/support/shared-stack.ts) and this file's own tenants. */
export function useOrganizationsStack() {
  beforeAll(async () => {
    stack = await sharedTestStack();
    base = stack.production.baseUrl;
    alice = await createTenant(stack.production);
    bob = await createTenant(stack.production);
  });
}

export const ORGANIZATION_KEYS = [
  'created_at',
  'modified_at',
  'id',
  'name',
  'slug',
  'avatar_url',
  'proration_behavior',
  'allow_customer_updates',
  'email',
  'website',
  'socials',
  'status',
  'details_submitted_at',
  'onboarding_resubmission_requested_at',
  'sso_enforced',
  'default_presentment_currency',
  'default_tax_behavior',
  'feature_settings',
  'subscription_settings',
  'notification_settings',
  'customer_email_settings',
  'customer_portal_settings',
  'dispute_settings',
  'embed_hosts',
  'embed_hosts_enforced',
  'country',
  'tax_settings',
  'account_id',
  'payout_account_id',
  'capabilities',
];
