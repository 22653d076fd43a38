import { z } from 'zod';
import {
  CUSTOMER_METER_DEFAULT_SORTING,
  CUSTOMER_METER_SORT_KEYS,
  CUSTOMER_METERS_READ,
  CUSTOMER_PORTAL_METERS_READ,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { customerResponse } from './customers.schemas.js';
import type { Route } from './route.js';
import { meterResponse } from './usage.schemas.js';

const dateTime = z.iso.datetime({ offset: true });
const many = <T extends z.ZodType>(item: T) => z.array(item).optional();

/** Polar's CustomerMeter (docs/usage-billing.md#customer-meters). */
export const customerMeterResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  customer_id: z.uuid(),
  meter_id: z.uuid(),
  consumed_units: z.number(),
  credited_units: z.number(),
  balance: z.number().meta({ description: 'credited − consumed since the last reset; may be negative.' }),
  customer: customerResponse,
  meter: meterResponse,
});

const sorting = sortingQuery(CUSTOMER_METER_SORT_KEYS, CUSTOMER_METER_DEFAULT_SORTING);

/** `/v1/customer-meters/` (list, get) and the portal's `/v1/customer-portal/meters/` (list, get). */
export const customerMeterRoutes: Route[] = [
  {
    operationId: 'customer_meters:list',
    method: 'get',
    path: '/v1/customer-meters/',
    summary: 'List customer meters',
    tag: 'customer_meters',
    access: CUSTOMER_METERS_READ,
    query: z.object({
      organization_id: many(z.uuid()),
      customer_id: many(z.uuid()),
      external_customer_id: many(z.string()),
      meter_id: many(z.uuid()),
      ...pageQuery,
      sorting,
    }),
    operation: 'CustomerMetersList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.customerMeters),
    status: 200,
    response: listOf(customerMeterResponse),
  },
  {
    operationId: 'customer_meters:get',
    method: 'get',
    path: '/v1/customer-meters/{id}',
    summary: 'Get a customer meter',
    tag: 'customer_meters',
    access: CUSTOMER_METERS_READ,
    params: idParams,
    operation: 'CustomerMetersGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.customerMeter),
    status: 200,
    response: customerMeterResponse,
    errors: [404],
  },
  {
    operationId: 'customer_portal:customer_meters:list',
    method: 'get',
    path: '/v1/customer-portal/meters/',
    summary: 'List meters',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_METERS_READ,
    query: z.object({ meter_id: many(z.uuid()), ...pageQuery, sorting }),
    operation: 'CustomerPortalMetersList',
    variables: ({ query }) => ({
      meterId: query.meter_id ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => toWire(data.customerPortalMeters),
    status: 200,
    response: listOf(customerMeterResponse),
  },
  {
    operationId: 'customer_portal:customer_meters:get',
    method: 'get',
    path: '/v1/customer-portal/meters/{id}',
    summary: 'Get a meter',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_METERS_READ,
    params: idParams,
    operation: 'CustomerPortalMetersGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.customerPortalMeter),
    status: 200,
    response: customerMeterResponse,
    errors: [404],
  },
];
