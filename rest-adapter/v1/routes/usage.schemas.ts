import { z } from 'zod';
import {
  AGGREGATION_FUNCTIONS,
  EVENT_SOURCES,
  FILTER_CONJUNCTIONS,
  MAX_EVENT_NAME_LENGTH,
  MAX_INGEST_BATCH,
  METER_UNITS,
  TIME_INTERVALS,
} from '../../../subgraphs/billing/contract.js';
import { customerResponse } from './customers.schemas.js';
import { graphqlInt, requestDateTime } from './common.js';
import { metadataInput, metadataOutput } from './metadata.schemas.js';

const dateTime = z.iso.datetime({ offset: true });

/**
 * A meter filter (Polar's Filter): `{conjunction: "and" | "or", clauses: [clause | filter]}`, a clause being
 * `{property, operator: eq | ne | gt | gte | lt | lte | like | not_like, value: string | int32 | boolean}`. The
 * nesting is checked by billing (422 at the clause's `loc`); this schema documents the outer shape.
 */
export const meterFilter = z
  .object({
    conjunction: z.enum(FILTER_CONJUNCTIONS as unknown as [string, ...string[]]),
    clauses: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({
    description:
      'Nested and/or clauses over `name`, `source`, `timestamp` (epoch seconds) and metadata paths (`_llm.total_tokens`); operators eq, ne, gt, gte, lt, lte, like, not_like.',
  });

/** Polar's Aggregation: `{func: "count"}` or `{func: sum | max | min | avg | unique, property}`. */
export const meterAggregation = z
  .object({
    func: z.enum(AGGREGATION_FUNCTIONS as unknown as [string, ...string[]]),
    property: z.string().optional(),
  })
  .meta({ description: '`count`, or `sum`, `max`, `min`, `avg`, `unique` over a property.' });

const unit = z.enum(METER_UNITS as unknown as [string, ...string[]]);

export const meterResponse = z.object({
  metadata: metadataOutput,
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  name: z.string(),
  unit,
  custom_label: z.string().nullable(),
  custom_multiplier: z.number().int().nullable(),
  filter: meterFilter,
  aggregation: meterAggregation,
  organization_id: z.uuid(),
  archived_at: dateTime.nullable(),
});

export const meterCreateBody = z.strictObject({
  name: z.string().min(3),
  unit: unit.optional(),
  custom_label: z.string().nullish(),
  custom_multiplier: graphqlInt().gt(0).nullish(),
  filter: meterFilter,
  aggregation: meterAggregation,
  metadata: metadataInput.optional(),
  organization_id: z.uuid().nullish(),
});

export const meterUpdateBody = z.strictObject({
  name: z.string().min(3).nullish(),
  unit: unit.nullish(),
  custom_label: z.string().nullish(),
  custom_multiplier: graphqlInt().gt(0).nullish(),
  filter: meterFilter.nullish(),
  aggregation: meterAggregation.nullish(),
  metadata: metadataInput.nullish(),
  is_archived: z.boolean().nullish(),
});

export const meterQuantitiesResponse = z.object({
  quantities: z.array(z.object({ timestamp: dateTime, quantity: z.number() })),
  total: z.number(),
});

export const meterQuantitiesQuery = z.object({
  start_timestamp: requestDateTime,
  end_timestamp: requestDateTime,
  interval: z.enum(TIME_INTERVALS as unknown as [string, ...string[]]),
  timezone: z.string().default('UTC'),
  customer_id: z.array(z.uuid()).optional(),
  external_customer_id: z.array(z.string()).optional(),
  customer_aggregation_function: z.enum(AGGREGATION_FUNCTIONS as unknown as [string, ...string[]]).optional(),
  metadata: z.record(z.string(), z.array(z.string())).optional(),
});

/** An event's metadata: Polar's metadata values, with the typed `_cost` and `_llm` (checked by billing). */
const eventMetadata = z.record(z.string(), z.unknown()).meta({
  description:
    'Strings (1-500 characters), numbers and booleans; `_cost` ({amount: decimal, currency: "usd"}) and `_llm` ({vendor, model, prompt, response, input_tokens, cached_input_tokens, output_tokens, total_tokens}).',
});

/** Polar's EventCreateCustomer | EventCreateExternalCustomer, as one object (billing checks which one). */
const eventCreate = z.strictObject({
  timestamp: requestDateTime.optional(),
  name: z.string().min(1).max(MAX_EVENT_NAME_LENGTH),
  organization_id: z.uuid().nullish(),
  external_id: z.string().nullish(),
  parent_id: z.string().nullish(),
  metadata: eventMetadata.optional(),
  customer_id: z.uuid().optional(),
  member_id: z.uuid().nullish(),
  external_customer_id: z.string().optional(),
  external_member_id: z.string().nullish(),
});

export const eventsIngestBody = z.strictObject({ events: z.array(eventCreate).max(MAX_INGEST_BATCH) });

export const eventsIngestResponse = z.object({ inserted: z.number().int(), duplicates: z.number().int() });

const source = z.enum(EVENT_SOURCES as unknown as [string, ...string[]]);

export const eventResponse = z.object({
  id: z.uuid(),
  timestamp: dateTime,
  organization_id: z.uuid(),
  customer_id: z.uuid().nullable(),
  customer: customerResponse.nullable(),
  external_customer_id: z.string().nullable(),
  member_id: z.uuid().nullable(),
  external_member_id: z.string().nullable(),
  child_count: z.number().int(),
  parent_id: z.uuid().nullable(),
  label: z.string(),
  name: z.string(),
  source,
  metadata: z.record(z.string(), z.unknown()),
});

export const eventNameResponse = z.object({
  name: z.string(),
  label: z.string(),
  source,
  occurrences: z.number().int(),
  first_seen: dateTime,
  last_seen: dateTime,
});

export const eventTypeResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  name: z.string(),
  label: z.string(),
  label_property_selector: z.string().nullable(),
  organization_id: z.uuid(),
});

export const eventTypeWithStatsResponse = eventNameResponse.extend({
  id: z.uuid().nullable(),
  created_at: dateTime.nullable(),
  modified_at: dateTime.nullable(),
  label_property_selector: z.string().nullable(),
  organization_id: z.uuid(),
});
