import { z } from 'zod';
import { customerResponse } from './customers.schemas.js';
import { metadataInput, metadataOutput } from './metadata.schemas.js';

/** Wire shapes of benefits and grants (docs/polar/resources.md#benefit): create bodies per type, responses. */
const description = z.string().trim().min(3).max(42);
const visibility = z.enum(['draft', 'private', 'public']);
const dateTime = z.iso.datetime({ offset: true });

const licenseKeyProperties = z.object({
  prefix: z.string().nullish(),
  expires: z.object({ ttl: z.number().int().gt(0), timeframe: z.enum(['year', 'month', 'day']) }).nullish(),
  activations: z.object({ limit: z.number().int().gt(0).lte(50), enable_customer_admin: z.boolean() }).nullish(),
  limit_usage: z.number().int().gt(0).nullish(),
});

/** Each type's `properties` on create (Polar's `Benefit…CreateProperties`). */
export const BENEFIT_PROPERTIES = {
  custom: z.object({ note: z.string().nullish() }),
  discord: z.object({
    guild_token: z.string(),
    role_id: z.string(),
    kick_member: z.boolean(),
    guild_id: z
      .string()
      .regex(/^\d{1,20}$/)
      .optional()
      .meta({
        description:
          'The Discord server (an extension: Polar reads it from `guild_token` through its Discord app). Needed by the Discord integration unless the token carries it.',
      }),
  }),
  github_repository: z.object({
    repository_owner: z.string(),
    repository_name: z.string(),
    permission: z.enum(['pull', 'triage', 'push', 'maintain', 'admin']),
  }),
  downloadables: z.object({ archived: z.record(z.uuid(), z.boolean()).optional(), files: z.array(z.uuid()).min(1) }),
  license_keys: licenseKeyProperties,
  meter_credit: z.object({
    units: z.number().int().gt(0).lte(2_147_483_647),
    rollover: z.boolean(),
    meter_id: z.uuid(),
  }),
  feature_flag: z.object({}),
  slack_shared_channel: z.object({
    slack_integration_id: z.string(),
    channel_name_template: z.string().min(1).max(80),
    private: z.boolean().optional(),
    welcome_message: z.string().nullish(),
    archive_on_revoke: z.boolean().optional(),
    team_invitees: z.array(z.string()).optional(),
  }),
} as const;

const TYPES = Object.keys(BENEFIT_PROPERTIES) as (keyof typeof BENEFIT_PROPERTIES)[];

/** `BenefitCreate`: discriminated on `type`. */
export const benefitCreateBody = z.discriminatedUnion(
  'type',
  TYPES.map(type =>
    z.object({
      type: z.literal(type),
      description,
      organization_id: z.uuid().nullish(),
      visibility: visibility.nullish(),
      metadata: metadataInput.optional(),
      properties: BENEFIT_PROPERTIES[type],
    }),
  ) as unknown as [z.ZodObject<any>, ...z.ZodObject<any>[]],
);

/** `BenefitUpdate`: the benefit's `type` and any of its fields. */
export const benefitUpdateBody = z.discriminatedUnion(
  'type',
  TYPES.map(type =>
    z.object({
      type: z.literal(type),
      description: description.nullish(),
      visibility: visibility.nullish(),
      metadata: metadataInput.optional(),
      properties: BENEFIT_PROPERTIES[type].nullish(),
    }),
  ) as unknown as [z.ZodObject<any>, ...z.ZodObject<any>[]],
);

export const productBenefitsBody = z.object({ benefits: z.array(z.uuid()) });

export const benefitResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  type: z.enum(TYPES as [string, ...string[]]),
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  is_deleted: z.boolean(),
  organization_id: z.uuid(),
  metadata: metadataOutput,
  visibility,
  visibility_configurable: z.boolean(),
  properties: z.record(z.string(), z.unknown()),
});

export const benefitGrantResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  granted_at: dateTime.nullable(),
  is_granted: z.boolean(),
  revoked_at: dateTime.nullable(),
  is_revoked: z.boolean(),
  subscription_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  customer_id: z.uuid(),
  member_id: z.uuid().nullable(),
  benefit_id: z.uuid(),
  error: z.object({ message: z.string(), type: z.string(), timestamp: z.string() }).nullable(),
  customer: customerResponse,
  benefit: benefitResponse,
  properties: z.record(z.string(), z.unknown()),
});

export const customerStateResponse = (customerResponse as z.ZodObject<any>).extend({
  active_subscriptions: z.array(
    z.object({
      id: z.uuid(),
      created_at: dateTime,
      modified_at: dateTime.nullable(),
      custom_field_data: z.record(z.string(), z.unknown()),
      metadata: metadataOutput,
      status: z.enum(['active', 'trialing']),
      amount: z.number().int(),
      currency: z.string(),
      recurring_interval: z.string(),
      current_period_start: dateTime,
      current_period_end: dateTime,
      trial_start: dateTime.nullable(),
      trial_end: dateTime.nullable(),
      cancel_at_period_end: z.boolean(),
      canceled_at: dateTime.nullable(),
      started_at: dateTime.nullable(),
      ends_at: dateTime.nullable(),
      product_id: z.uuid(),
      discount_id: z.uuid().nullable(),
      seats: z.number().int().nullable(),
      units: z.number().int().nullable(),
      meters: z.array(z.record(z.string(), z.unknown())),
    }),
  ),
  granted_benefits: z.array(
    z.object({
      id: z.uuid(),
      created_at: dateTime,
      modified_at: dateTime.nullable(),
      granted_at: dateTime,
      benefit_id: z.uuid(),
      benefit_type: z.string(),
      benefit_metadata: metadataOutput,
      properties: z.record(z.string(), z.unknown()),
    }),
  ),
  active_meters: z.array(
    z.object({
      id: z.uuid(),
      created_at: dateTime,
      modified_at: dateTime.nullable(),
      meter_id: z.uuid(),
      consumed_units: z.number(),
      credited_units: z.number(),
      balance: z.number(),
    }),
  ),
});
