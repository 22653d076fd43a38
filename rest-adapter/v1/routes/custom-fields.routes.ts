import { z } from 'zod';
import {
  CUSTOM_FIELD_DEFAULT_SORTING,
  CUSTOM_FIELD_KINDS,
  CUSTOM_FIELD_SORT_KEYS,
  CUSTOM_FIELDS_READ,
  CUSTOM_FIELDS_WRITE,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { customFieldCreate, customFieldResponse, customFieldUpdate } from './custom-fields.schemas.js';
import type { Route } from './route.js';

const many = <T extends z.ZodType>(item: T) => z.array(item).optional();

/** `properties` go to the subgraph as the wire has them (snake_case): only the rest of the body is camelized. */
const withProperties = (body: Record<string, any>) => {
  const { properties, ...rest } = body;
  return { ...toInput(rest), ...(properties !== undefined ? { properties } : {}) };
};

/** `/v1/custom-fields/`: list and get (read path), create, update, delete (docs/custom-fields.md). */
export const customFieldRoutes: Route[] = [
  {
    operationId: 'custom-fields:list',
    method: 'get',
    path: '/v1/custom-fields/',
    summary: 'List custom fields',
    tag: 'custom-fields',
    access: CUSTOM_FIELDS_READ,
    query: z.object({
      organization_id: many(z.uuid()),
      query: z.string().optional(),
      type: many(z.enum(CUSTOM_FIELD_KINDS as [string, ...string[]])),
      ...pageQuery,
      sorting: sortingQuery(CUSTOM_FIELD_SORT_KEYS, CUSTOM_FIELD_DEFAULT_SORTING),
    }),
    operation: 'CustomFieldsList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.customFields),
    status: 200,
    response: listOf(customFieldResponse),
  },
  {
    operationId: 'custom-fields:create',
    method: 'post',
    path: '/v1/custom-fields/',
    summary: 'Create a custom field',
    description: '422 at `slug` when a live field of the organization has it already.',
    tag: 'custom-fields',
    access: CUSTOM_FIELDS_WRITE,
    body: customFieldCreate,
    operation: 'CustomFieldsCreate',
    variables: ({ body }) => ({ input: withProperties(body) }),
    result: data => toWire(data.createCustomField),
    status: 201,
    response: customFieldResponse,
  },
  {
    operationId: 'custom-fields:get',
    method: 'get',
    path: '/v1/custom-fields/{id}',
    summary: 'Get a custom field',
    tag: 'custom-fields',
    access: CUSTOM_FIELDS_READ,
    params: idParams,
    operation: 'CustomFieldsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.customField),
    status: 200,
    response: customFieldResponse,
    errors: [404],
  },
  {
    operationId: 'custom-fields:update',
    method: 'patch',
    path: '/v1/custom-fields/{id}',
    summary: 'Update a custom field',
    description:
      "The type can't change (422 at `type`); a new slug must be free (422 at `slug`) and the answers already " +
      'given under the old one move to it.',
    tag: 'custom-fields',
    access: CUSTOM_FIELDS_WRITE,
    params: idParams,
    body: customFieldUpdate,
    operation: 'CustomFieldsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: withProperties(body) }),
    result: data => toWire(data.updateCustomField),
    status: 200,
    response: customFieldResponse,
    errors: [404],
  },
  {
    operationId: 'custom-fields:delete',
    method: 'delete',
    path: '/v1/custom-fields/{id}',
    summary: 'Delete a custom field',
    tag: 'custom-fields',
    access: CUSTOM_FIELDS_WRITE,
    params: idParams,
    operation: 'CustomFieldsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
];
