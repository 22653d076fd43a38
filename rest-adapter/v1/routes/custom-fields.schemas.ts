import { z } from 'zod';
import { metadataInput, metadataOutput } from './metadata.schemas.js';

const dateTime = z.iso.datetime({ offset: true });
const nonEmpty = z.string().min(1);
const int32 = z.number().int().gte(-2_147_483_648).lte(2_147_483_647);

/** The labels every type's form shows (Polar's CustomFieldProperties). */
const formProperties = {
  form_label: nonEmpty.optional(),
  form_help_text: nonEmpty.optional(),
  form_placeholder: nonEmpty.optional(),
};

/** `le` may not be below `ge` (Polar's check, at `le`). */
const bounded = <T extends z.ZodObject<any>>(schema: T) =>
  schema.superRefine((value: any, ctx) => {
    if (value.ge != null && value.le != null && value.ge > value.le)
      ctx.addIssue({
        code: 'custom',
        path: ['le'],
        message: 'Greater than or equal (ge) must be less than or equal to Less than or equal (le)',
      });
  });

/** Each type's `properties` (Polar's CustomField…Properties), by type. */
export const customFieldProperties = {
  text: z.object({
    ...formProperties,
    textarea: z.boolean().optional(),
    min_length: int32.gte(0).optional(),
    max_length: int32.gte(0).optional(),
  }),
  number: bounded(z.object({ ...formProperties, ge: int32.optional(), le: int32.optional() })),
  date: bounded(
    z.object({
      ...formProperties,
      ge: int32.optional().meta({ description: 'The earliest date, as a Unix timestamp.' }),
      le: int32.optional().meta({ description: 'The latest date, as a Unix timestamp.' }),
    }),
  ),
  checkbox: z.object(formProperties),
  select: z.object({
    ...formProperties,
    options: z.array(z.object({ value: nonEmpty, label: nonEmpty })).min(1),
  }),
} as const;

type Kind = keyof typeof customFieldProperties;
const KINDS = Object.keys(customFieldProperties) as Kind[];

const slug = z
  .string()
  .toLowerCase()
  .min(1)
  .regex(/^[a-z0-9-_]+$/)
  .meta({ description: 'Identifier of the custom field: the key its answers are stored under.' });

/** Polar's CustomFieldCreate: one shape per type. */
export const customFieldCreate = z.discriminatedUnion(
  'type',
  KINDS.map(type =>
    z.object({
      type: z.literal(type),
      slug,
      name: nonEmpty,
      organization_id: z.uuid().nullish(),
      properties: customFieldProperties[type],
      metadata: metadataInput.optional(),
    }),
  ) as any,
);

/** Polar's CustomFieldUpdate: `type` names the field's own type; absent fields are left as they are. */
export const customFieldUpdate = z.discriminatedUnion(
  'type',
  KINDS.map(type =>
    z.object({
      type: z.literal(type),
      slug: slug.nullish(),
      name: nonEmpty.nullish(),
      properties: customFieldProperties[type].nullish(),
      metadata: metadataInput.optional(),
    }),
  ) as any,
);

/** Polar's CustomField. */
export const customFieldResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  metadata: metadataOutput,
  type: z.enum(KINDS),
  slug: z.string(),
  name: z.string(),
  organization_id: z.uuid(),
  properties: z.record(z.string(), z.unknown()),
});
