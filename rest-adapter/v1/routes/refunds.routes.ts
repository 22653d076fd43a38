import { z } from 'zod';
import {
  MANUAL_REFUND_REASONS,
  REFUND_DEFAULT_SORTING,
  REFUND_SORT_KEYS,
  REFUNDS_READ,
  REFUNDS_WRITE,
  refundWire,
} from '../../../subgraphs/billing/contract.js';
import { listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { metadataInput, metadataOutput } from './metadata.schemas.js';
import type { Route } from './route.js';
import { queryBoolean } from './subscriptions.schemas.js';

const many = <T extends z.ZodType>(item: T) => z.array(item).optional();
const dateTime = z.iso.datetime({ offset: true });

/** Polar's Refund (docs/polar/resources.md#refund). */
export const refundResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  metadata: metadataOutput,
  status: z.enum(['pending', 'succeeded', 'failed', 'canceled']),
  reason: z.enum([...MANUAL_REFUND_REASONS, 'dispute_prevention']),
  amount: z.number().int(),
  tax_amount: z.number().int(),
  currency: z.string(),
  organization_id: z.uuid(),
  order_id: z.uuid(),
  subscription_id: z.uuid().nullable(),
  customer_id: z.uuid(),
  revoke_benefits: z.boolean(),
  dispute: z.null(),
});

/** Polar's RefundCreate. */
const refundCreate = z.object({
  order_id: z.uuid(),
  reason: z.enum(MANUAL_REFUND_REASONS),
  amount: z.number().int().gt(0).meta({ description: 'Amount to refund in minor units, net of tax. Minimum is 1.' }),
  comment: z.string().nullish(),
  revoke_benefits: z.boolean().optional(),
  metadata: metadataInput.optional(),
});

/** `/v1/refunds/`: list (read path) and create (through the payment processor). */
export const refundRoutes: Route[] = [
  {
    operationId: 'refunds:list',
    method: 'get',
    path: '/v1/refunds/',
    summary: 'List refunds',
    tag: 'refunds',
    access: REFUNDS_READ,
    query: z.object({
      id: many(z.uuid()),
      organization_id: many(z.uuid()),
      order_id: many(z.uuid()),
      subscription_id: many(z.uuid()),
      customer_id: many(z.uuid()),
      external_customer_id: many(z.string()),
      succeeded: queryBoolean.optional(),
      ...pageQuery,
      sorting: sortingQuery(REFUND_SORT_KEYS, REFUND_DEFAULT_SORTING),
    }),
    operation: 'RefundsList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => ({ items: data.refunds.items.map(refundWire), pagination: toWire(data.refunds.pagination) }),
    status: 200,
    response: listOf(refundResponse),
  },
  {
    operationId: 'refunds:create',
    method: 'post',
    path: '/v1/refunds/',
    summary: 'Create a refund',
    description:
      'Refunds all or part of a paid order through the payment processor; the order becomes `partially_refunded` or ' +
      '`refunded`. 403 `RefundedAlready` when the order is fully refunded; 400 `RevokeSubscriptionBenefitsProhibited` ' +
      'for `revoke_benefits` on a subscription order; 404 `RefundUnknownPayment` when the order has no succeeded ' +
      'payment; 422 at `amount` above the refundable amount, at `order_id` for an unknown order.',
    tag: 'refunds',
    access: REFUNDS_WRITE,
    body: refundCreate,
    operation: 'RefundsCreate',
    variables: ({ body }) => ({ input: toInput({ ...body, metadata: body.metadata ?? null }) }),
    result: data => refundWire(data.createRefund),
    status: 201,
    response: refundResponse,
    errors: [400, 403, 404],
  },
];
