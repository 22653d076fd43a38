import { z } from 'zod';
import { graphqlInt, requestDateTime } from './common.js';
import { addressResponse } from './customers.schemas.js';
import { metadataInput, metadataOutput } from './metadata.schemas.js';
import { subscriptionStatus } from './subscriptions.schemas.js';

/** Wire shapes of license keys (docs/polar/resources.md#license-keys): request bodies and responses. */
const dateTime = z.iso.datetime({ offset: true });
const status = z.enum(['granted', 'revoked', 'disabled']);
/** The key as sent: any string (an unknown one is a 404, as in Polar). */
const key = z.string();

export const licenseKeyUpdateBody = z.object({
  status: status.nullish(),
  usage: graphqlInt().optional(),
  limit_activations: graphqlInt().gt(0).nullish(),
  limit_usage: graphqlInt().gt(0).nullish(),
  expires_at: requestDateTime.nullish(),
});

export const licenseKeyValidateBody = z.object({
  key,
  organization_id: z.uuid(),
  activation_id: z.uuid().nullish(),
  benefit_id: z.uuid().nullish(),
  customer_id: z.uuid().nullish(),
  increment_usage: graphqlInt().gte(0).nullish(),
  conditions: metadataInput.optional(),
});

export const licenseKeyActivateBody = z.object({
  key,
  organization_id: z.uuid(),
  label: z.string(),
  conditions: metadataInput.optional(),
  meta: metadataInput.optional(),
});

export const licenseKeyDeactivateBody = z.object({ key, organization_id: z.uuid(), activation_id: z.uuid() });

/** LicenseKeyCustomer: CustomerBase's keys. */
const licenseKeyCustomer = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  metadata: metadataOutput,
  external_id: z.string().nullable(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  type: z.enum(['individual', 'team']),
  name: z.string().nullable(),
  billing_name: z.string().nullable(),
  billing_address: addressResponse.nullable(),
  tax_id: z.array(z.string()).nullable(),
  locale: z.string().nullable(),
  organization_id: z.uuid(),
  default_payment_method_id: z.uuid().nullable(),
  deleted_at: dateTime.nullable(),
  first_user_event_at: dateTime.nullable(),
  avatar_url: z.string(),
});

/** LicenseKeyMember (2026-10 on): the seat member holding a key. */
const licenseKeyMember = z.object({ id: z.uuid(), email: z.string(), external_id: z.string().nullable() });

/** LicenseKeySubscription (2027-01 on): the subscription that granted a key. */
const licenseKeySubscription = z.object({
  id: z.uuid(),
  status: subscriptionStatus,
  current_period_start: dateTime,
  current_period_end: dateTime,
  cancel_at_period_end: z.boolean(),
  ends_at: dateTime.nullable(),
});

/** LicenseKeyOrder (2027-01 on): the one-time order that granted a key. */
const licenseKeyOrder = z.object({
  id: z.uuid(),
  created_at: dateTime,
  status: z.enum(['draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void']),
  paid: z.boolean(),
});

/**
 * The newest version's shapes: which fields an older version leaves out is declared in
 * rest-adapter/v1/versions/api-versions.ts (docs/api-versions.md).
 */
export const licenseKeyResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  organization_id: z.uuid(),
  customer_id: z.uuid(),
  customer: licenseKeyCustomer,
  member_id: z.uuid().nullable(),
  member: licenseKeyMember.nullable(),
  benefit_id: z.uuid(),
  key: z.string(),
  display_key: z.string(),
  status,
  limit_activations: z.number().int().nullable(),
  usage: z.number().int(),
  limit_usage: z.number().int().nullable(),
  validations: z.number().int(),
  last_validated_at: dateTime.nullable(),
  expires_at: dateTime.nullable(),
});

export const licenseKeyActivationBaseResponse = z.object({
  id: z.uuid(),
  license_key_id: z.uuid(),
  label: z.string(),
  meta: metadataOutput,
  created_at: dateTime,
  modified_at: dateTime.nullable(),
});

export const licenseKeyWithActivationsResponse = licenseKeyResponse.extend({
  activations: z.array(licenseKeyActivationBaseResponse),
});
/** What granted a key: validate's and activate's answers. */
const grantedBy = {
  subscription_id: z.uuid().nullable(),
  subscription: licenseKeySubscription.nullable(),
  order_id: z.uuid().nullable(),
  order: licenseKeyOrder.nullable(),
};
export const validatedLicenseKeyResponse = licenseKeyResponse.extend({
  ...grantedBy,
  activation: licenseKeyActivationBaseResponse.nullable(),
});
export const licenseKeyActivationResponse = licenseKeyActivationBaseResponse.extend({
  license_key: licenseKeyResponse,
});
/** LicenseKeyActivationCreated (activate): the key is a GrantedLicenseKey. */
export const licenseKeyActivationCreatedResponse = licenseKeyActivationBaseResponse.extend({
  license_key: licenseKeyResponse.extend({ status: z.literal('granted'), ...grantedBy }),
});
