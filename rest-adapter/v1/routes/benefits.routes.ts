import { z } from 'zod';
import {
  BENEFIT_DEFAULT_SORTING,
  BENEFIT_SORT_KEYS,
  BENEFIT_TYPES,
  BENEFITS_READ,
  BENEFITS_WRITE,
  benefitDownloadableFileWire,
  benefitWire,
  PRODUCTS_WRITE,
  productWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { benefitCreateBody, benefitResponse, benefitUpdateBody, productBenefitsBody } from './benefits.schemas.js';
import { benefitDownloadableFileResponse } from './files.schemas.js';
import { productResponse } from './products.schemas.js';
import type { Route } from './route.js';

/** Wire → GraphQL input: absent keys dropped; `properties` and `metadata` kept as written (snake_case). */
function input(body: Record<string, unknown>): Record<string, unknown> {
  const { properties, metadata, ...rest } = body;
  const fields = toInput<Record<string, unknown>>(
    Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  );
  if (properties !== undefined) fields.properties = properties;
  if (metadata !== undefined) fields.metadata = metadata;
  return fields;
}

/** Polar's benefits API (`/v1/benefits/`) and a product's benefits. */
export const benefitRoutes: Route[] = [
  {
    operationId: 'benefits:list',
    method: 'get',
    path: '/v1/benefits/',
    summary: 'List benefits',
    tag: 'benefits',
    access: BENEFITS_READ,
    query: z.object({
      id: z.array(z.uuid()).optional(),
      organization_id: z.array(z.uuid()).optional(),
      // Polar's query parameter is `type_filter` (what the SDK sends); `type` is accepted too.
      type_filter: z.array(z.enum(BENEFIT_TYPES)).optional(),
      type: z.array(z.enum(BENEFIT_TYPES)).optional(),
      query: z.string().optional(),
      ...pageQuery,
      sorting: sortingQuery(BENEFIT_SORT_KEYS, BENEFIT_DEFAULT_SORTING),
    }),
    operation: 'BenefitsList',
    variables: ({ query }) => ({
      id: query.id ?? null,
      organizationId: query.organization_id ?? null,
      type: query.type_filter ?? query.type ?? null,
      query: query.query || null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({ items: data.benefits.items.map(benefitWire), pagination: toWire(data.benefits.pagination) }),
    status: 200,
    response: listOf(benefitResponse),
  },
  {
    operationId: 'benefits:create',
    method: 'post',
    path: '/v1/benefits/',
    summary: 'Create a benefit',
    tag: 'benefits',
    access: BENEFITS_WRITE,
    body: benefitCreateBody,
    operation: 'BenefitsCreate',
    variables: ({ body }) => ({ input: input(body) }),
    result: data => benefitWire(data.createBenefit),
    status: 201,
    response: benefitResponse,
  },
  {
    operationId: 'benefits:get',
    method: 'get',
    path: '/v1/benefits/{id}',
    summary: 'Get a benefit',
    tag: 'benefits',
    access: BENEFITS_READ,
    params: idParams,
    operation: 'BenefitsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => benefitWire(data.benefit),
    status: 200,
    response: benefitResponse,
    errors: [404],
  },
  {
    operationId: 'benefits:files',
    method: 'get',
    path: '/v1/benefits/{id}/files',
    summary: 'List the files of a downloadables benefit',
    description:
      'The active files of a downloadables benefit, in its order, with their download statistics: ' +
      '`downloaders` (distinct customers) and `downloads`. Any other benefit type answers 404.',
    tag: 'benefits',
    access: BENEFITS_READ,
    params: idParams,
    query: z.object({ ...pageQuery }),
    operation: 'BenefitsFiles',
    variables: ({ params, query }) => ({ id: params.id, page: query.page, limit: query.limit }),
    result: data => ({
      items: data.benefitFiles.items.map(benefitDownloadableFileWire),
      pagination: toWire(data.benefitFiles.pagination),
    }),
    status: 200,
    response: listOf(benefitDownloadableFileResponse),
    errors: [404],
  },
  {
    operationId: 'benefits:update',
    method: 'patch',
    path: '/v1/benefits/{id}',
    summary: 'Update a benefit',
    description: "The body names the benefit's `type` (it cannot change) and any fields to change.",
    tag: 'benefits',
    access: BENEFITS_WRITE,
    params: idParams,
    body: benefitUpdateBody,
    operation: 'BenefitsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: input(body) }),
    result: data => benefitWire(data.updateBenefit),
    status: 200,
    response: benefitResponse,
    errors: [404],
  },
  {
    operationId: 'benefits:delete',
    method: 'delete',
    path: '/v1/benefits/{id}',
    summary: 'Delete a benefit',
    description: 'Soft delete: the benefit leaves every product and every grant of it is revoked.',
    tag: 'benefits',
    access: BENEFITS_WRITE,
    params: idParams,
    operation: 'BenefitsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [403, 404],
  },
  {
    operationId: 'products:update_benefits',
    method: 'post',
    path: '/v1/products/{id}/benefits',
    summary: "Update a product's benefits",
    description:
      "Replaces the product's benefits with these, in this order. Subscriptions and paid orders of the product get their grants brought in line by a job.",
    tag: 'products',
    access: PRODUCTS_WRITE,
    params: idParams,
    body: productBenefitsBody,
    operation: 'ProductsUpdateBenefits',
    variables: ({ params, body }) => ({ id: params.id, benefits: body.benefits }),
    result: data => productWire(data.updateProductBenefits),
    status: 200,
    response: productResponse,
    errors: [404],
  },
];
