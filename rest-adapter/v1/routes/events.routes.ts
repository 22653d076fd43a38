import { z } from 'zod';
import {
  EVENT_DEFAULT_SORTING,
  EVENT_NAME_DEFAULT_SORTING,
  EVENT_NAME_SORT_KEYS,
  EVENT_SORT_KEYS,
  EVENT_SOURCES,
  EVENT_TYPE_DEFAULT_SORTING,
  EVENT_TYPE_SORT_KEYS,
  EVENTS_READ,
  EVENTS_WRITE,
} from '../../../subgraphs/billing/contract.js';
import { pydanticIssue } from '../validation.js';
import { idParams, listOf, pageQuery, queryInteger, requestDateTime, sortingQuery, toInput, toWire } from './common.js';
import type { Route } from './route.js';
import { queryBoolean } from './subscriptions.schemas.js';
import {
  eventNameResponse,
  eventResponse,
  eventsIngestBody,
  eventsIngestResponse,
  eventTypeResponse,
  eventTypeWithStatsResponse,
} from './usage.schemas.js';

const many = <T extends z.ZodType>(item: T) => z.array(item).optional();
const source = z.enum(EVENT_SOURCES as unknown as [string, ...string[]]);

/** Polar's `filter` query: a meter filter as a JSON string (its clauses are checked by billing). */
const filterJson = z
  .string()
  .transform((text, ctx) => {
    try {
      const value = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // answered below
    }
    pydanticIssue(ctx, text, 'json_invalid', 'Invalid JSON: a meter filter object was expected');
    return z.NEVER;
  })
  .optional()
  .meta({ type: 'string', description: 'A meter filter as JSON: {"conjunction": "and", "clauses": [...]}.' });

const depth = queryInteger
  .transform((n, ctx) => {
    if (n < 0 || n > 5) {
      pydanticIssue(
        ctx,
        n,
        n < 0 ? 'greater_than_equal' : 'less_than_equal',
        `Input should be ${n < 0 ? 'greater than or equal to 0' : 'less than or equal to 5'}`,
      );
      return z.NEVER;
    }
    return n;
  })
  .optional()
  .meta({ type: 'integer', minimum: 0, maximum: 5, description: 'Levels below the roots (or below parent_id).' });

const customers = {
  customer_id: many(z.uuid()),
  external_customer_id: many(z.string()),
};

/** `/v1/events/` (docs/usage-events.md): ingest, list, names, get. */
export const eventRoutes: Route[] = [
  {
    operationId: 'events:ingest',
    method: 'post',
    path: '/v1/events/ingest',
    summary: 'Ingest events',
    description:
      'A batch of at most 1,000 events, all inserted or none: one invalid event is a 422 at its index. Events ' +
      'are deduplicated by `external_id` within the organization, across batches; `duplicates` counts those skipped. ' +
      'Rate limited on its own (docs/limits.md).',
    tag: 'events',
    access: EVENTS_WRITE,
    body: eventsIngestBody,
    // Billing reads the batch's shape itself, once, with the same 422 items (docs/usage-events.md#ingest).
    bodyShapeCheckedBySubgraph: true,
    operation: 'EventsIngest',
    variables: ({ body }) => ({ batch: body }),
    result: data => toWire(data.ingestEvents),
    status: 200,
    response: eventsIngestResponse,
  },
  {
    operationId: 'events:list',
    method: 'get',
    path: '/v1/events/',
    summary: 'List events',
    tag: 'events',
    access: EVENTS_READ,
    query: z.object({
      filter: filterJson,
      start_timestamp: requestDateTime.optional(),
      end_timestamp: requestDateTime.optional(),
      organization_id: many(z.uuid()),
      ...customers,
      meter_id: z.uuid().optional(),
      name: many(z.string()),
      source: many(source),
      metadata: z.record(z.string(), z.array(z.string())).optional(),
      parent_id: z.uuid().optional(),
      depth,
      ...pageQuery,
      sorting: sortingQuery(EVENT_SORT_KEYS, EVENT_DEFAULT_SORTING),
    }),
    operation: 'EventsList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.events),
    status: 200,
    response: listOf(eventResponse),
    errors: [404],
  },
  {
    operationId: 'events:list_names',
    method: 'get',
    path: '/v1/events/names',
    summary: 'List event names',
    tag: 'events',
    access: EVENTS_READ,
    query: z.object({
      organization_id: many(z.uuid()),
      ...customers,
      source: many(source),
      query: z.string().optional(),
      ...pageQuery,
      sorting: sortingQuery(EVENT_NAME_SORT_KEYS, EVENT_NAME_DEFAULT_SORTING),
    }),
    operation: 'EventsListNames',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.eventNames),
    status: 200,
    response: listOf(eventNameResponse),
  },
  {
    operationId: 'events:get',
    method: 'get',
    path: '/v1/events/{id}',
    summary: 'Get an event',
    tag: 'events',
    access: EVENTS_READ,
    params: idParams,
    operation: 'EventsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.event),
    status: 200,
    response: eventResponse,
    errors: [404],
  },
];

/** `/v1/event-types/`: the organization's event names with their counts, and their labels. */
export const eventTypeRoutes: Route[] = [
  {
    operationId: 'event-types:list',
    method: 'get',
    path: '/v1/event-types/',
    summary: 'List event types',
    tag: 'event-types',
    access: EVENTS_READ,
    query: z.object({
      organization_id: many(z.uuid()),
      ...customers,
      query: z.string().optional(),
      root_events: queryBoolean.optional(),
      parent_id: z.uuid().optional(),
      source: source.optional(),
      ...pageQuery,
      sorting: sortingQuery(EVENT_TYPE_SORT_KEYS, EVENT_TYPE_DEFAULT_SORTING),
    }),
    operation: 'EventTypesList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.eventTypes),
    status: 200,
    response: listOf(eventTypeWithStatsResponse),
  },
  {
    operationId: 'event-types:update',
    method: 'patch',
    path: '/v1/event-types/{id}',
    summary: "Update an event type's label",
    tag: 'event-types',
    access: EVENTS_WRITE,
    params: idParams,
    body: z.strictObject({ label: z.string().min(1).max(128), label_property_selector: z.string().max(256).nullish() }),
    operation: 'EventTypesUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(body) }),
    result: data => toWire(data.updateEventType),
    status: 200,
    response: eventTypeResponse,
    errors: [404],
  },
];
