import { z } from 'zod';
import {
  CUSTOMER_NAME_MAX_LENGTH,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_LENGTH,
} from '../../../subgraphs/billing/contract.js';
import { memberOwnerCreate } from './members.schemas.js';

/** Wire shapes of customers (docs/polar/resources.md#customer): request bodies and responses, for validation and OpenAPI. */
const dateTime = z.iso.datetime({ offset: true });
const country = z.string().regex(/^[A-Z]{2}$/, 'Input should be an ISO 3166-1 alpha-2 country code');

/**
 * Polar's MetadataInput: ≤50 keys, keys 1–40 characters, string values 1–500 characters; the limits are
 * billing's (shared/metadata.ts). Every billing route's metadata is checked with this one schema.
 */
export const metadataInput = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .superRefine((metadata, ctx) => {
    const keys = Object.keys(metadata);
    if (keys.length > METADATA_MAX_KEYS) {
      ctx.addIssue({
        code: 'custom',
        message: `Dictionary should have at most ${METADATA_MAX_KEYS} items after validation, not ${keys.length}`,
        input: metadata,
      });
    }
    for (const key of keys) {
      if (key.length < 1 || key.length > METADATA_KEY_MAX_LENGTH) {
        ctx.addIssue(
          key.length < 1
            ? { code: 'too_small', origin: 'string', minimum: 1, inclusive: true, path: [key], input: key }
            : {
                code: 'too_big',
                origin: 'string',
                maximum: METADATA_KEY_MAX_LENGTH,
                inclusive: true,
                path: [key],
                input: key,
              },
        );
      }
      const value = metadata[key];
      if (typeof value === 'string' && (value.length < 1 || value.length > METADATA_VALUE_MAX_LENGTH)) {
        ctx.addIssue(
          value.length < 1
            ? { code: 'too_small', origin: 'string', minimum: 1, inclusive: true, path: [key], input: value }
            : {
                code: 'too_big',
                origin: 'string',
                maximum: METADATA_VALUE_MAX_LENGTH,
                inclusive: true,
                path: [key],
                input: value,
              },
        );
      }
    }
  });

export const addressInput = z.object({
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  postal_code: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  country,
});

const sharedFields = {
  metadata: metadataInput.optional(),
  email: z.email().nullish(),
  name: z.string().max(CUSTOMER_NAME_MAX_LENGTH).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: z.string().nullish(),
  locale: z.string().nullish(),
};

/** CustomerIndividualCreate | CustomerTeamCreate, discriminated by `type` (default individual). */
export const customerCreateBody = z
  .object({
    ...sharedFields,
    external_id: z.string().nullish(),
    organization_id: z.uuid().nullish(),
    owner: memberOwnerCreate.nullish(),
    type: z.enum(['individual', 'team']).default('individual'),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'individual' && !body.email)
      ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['email'], input: undefined });
  });

export const customerUpdateBody = z.object({
  ...sharedFields,
  external_id: z.string().nullish(),
  type: z.enum(['individual', 'team']).nullish(),
});

export const customerUpdateExternalBody = z.object(sharedFields);

export const addressResponse = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string(),
});

export const customerResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
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

export const customerPortalCustomerResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  name: z.string().nullable(),
  billing_name: z.string().nullable(),
  billing_address: addressResponse.nullable(),
  tax_id: z.array(z.string()).nullable(),
  oauth_accounts: z.record(z.string(), z.unknown()),
  default_payment_method_id: z.uuid().nullable(),
  type: z.enum(['individual', 'team']).nullable(),
});
