import { z } from 'zod';
import {
  METER_DEFAULT_SORTING,
  METER_SORT_KEYS,
  METERS_READ,
  METERS_WRITE,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import type { Route } from './route.js';
import { queryBoolean } from './subscriptions.schemas.js';
import {
  meterCreateBody,
  meterQuantitiesQuery,
  meterQuantitiesResponse,
  meterResponse,
  meterUpdateBody,
} from './usage.schemas.js';

/** `/v1/meters/` (docs/meters.md): list, create, get, update, quantities. */
export const meterRoutes: Route[] = [
  {
    operationId: 'meters:list',
    method: 'get',
    path: '/v1/meters/',
    summary: 'List meters',
    tag: 'meters',
    access: METERS_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      query: z.string().optional(),
      is_archived: queryBoolean.optional(),
      metadata: z.record(z.string(), z.array(z.string())).optional(),
      ...pageQuery,
      sorting: sortingQuery(METER_SORT_KEYS, METER_DEFAULT_SORTING),
    }),
    operation: 'MetersList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.meters),
    status: 200,
    response: listOf(meterResponse),
  },
  {
    operationId: 'meters:create',
    method: 'post',
    path: '/v1/meters/',
    summary: 'Create a meter',
    tag: 'meters',
    access: METERS_WRITE,
    body: meterCreateBody,
    operation: 'MetersCreate',
    variables: ({ body }) => ({ input: toInput(body) }),
    result: data => toWire(data.createMeter),
    status: 201,
    response: meterResponse,
  },
  {
    operationId: 'meters:get',
    method: 'get',
    path: '/v1/meters/{id}',
    summary: 'Get a meter',
    tag: 'meters',
    access: METERS_READ,
    params: idParams,
    operation: 'MetersGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.meter),
    status: 200,
    response: meterResponse,
    errors: [404],
  },
  {
    operationId: 'meters:update',
    method: 'patch',
    path: '/v1/meters/{id}',
    summary: 'Update a meter',
    description:
      "`filter` and `aggregation` cannot change once the meter's events have been billed (422 `forbidden`); " +
      '`is_archived: true` is refused while a price or a credit benefit uses the meter.',
    tag: 'meters',
    access: METERS_WRITE,
    params: idParams,
    body: meterUpdateBody,
    operation: 'MetersUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(body) }),
    result: data => toWire(data.updateMeter),
    status: 200,
    response: meterResponse,
    errors: [404],
  },
  {
    operationId: 'meters:quantities',
    method: 'get',
    path: '/v1/meters/{id}/quantities',
    summary: "Get a meter's quantities",
    description:
      "One point per interval from `start_timestamp` to `end_timestamp` in `timezone`, and the total. Polar's range " +
      'limits: hour ≤ 7 days, day ≤ 366, week ≤ 371, month ≤ 1,460, year ≤ 3,650 (422 at `query`).',
    tag: 'meters',
    access: METERS_READ,
    params: idParams,
    query: meterQuantitiesQuery,
    operation: 'MetersQuantities',
    variables: ({ params, query }) => ({ id: params.id, input: toInput(query) }),
    result: data => toWire(data.meterQuantities),
    status: 200,
    response: meterQuantitiesResponse,
    errors: [404],
  },
];
