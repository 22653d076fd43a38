import { z } from 'zod';
import { toInput, toWire } from './common.js';
import { customerResponse } from './customers.schemas.js';
import type { Route } from './route.js';
import { CUSTOMER_SESSIONS_WRITE } from '../../../subgraphs/billing/contract.js';

const dateTime = z.iso.datetime({ offset: true });

/**
 * CustomerSessionCustomerIDCreate | CustomerSessionCustomerExternalIDCreate (docs/polar/resources.md#customer-session); the
 * deprecated `customer_external_id` is accepted for `external_customer_id`.
 */
export const customerSessionCreateBody = z
  .object({
    customer_id: z.uuid().optional(),
    external_customer_id: z.string().optional(),
    customer_external_id: z.string().optional(),
    member_id: z.uuid().nullish(),
    external_member_id: z.string().nullish(),
    return_url: z.url().min(1).max(2083).nullish(),
  })
  .superRefine((body, ctx) => {
    if (!body.customer_id && body.external_customer_id === undefined && body.customer_external_id === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['customer_id'], input: undefined });
    }
  });

export const customerSessionResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  token: z.string(),
  expires_at: dateTime,
  return_url: z.string().nullable(),
  customer_portal_url: z.string(),
  customer_id: z.uuid(),
  customer: customerResponse,
});

export const customerSessionRoutes: Route[] = [
  {
    operationId: 'customer-sessions:create',
    method: 'post',
    path: '/v1/customer-sessions/',
    summary: 'Create a customer session (a one-hour customer portal token)',
    tag: 'customer-sessions',
    access: CUSTOMER_SESSIONS_WRITE,
    body: customerSessionCreateBody,
    operation: 'CustomerSessionsCreate',
    variables: ({ body }) => {
      const b = body as z.output<typeof customerSessionCreateBody>;
      return {
        input: toInput({
          customer_id: b.customer_id ?? null,
          external_customer_id: b.customer_id ? null : (b.external_customer_id ?? b.customer_external_id ?? null),
          return_url: b.return_url ?? null,
          member_id: b.member_id ?? null,
          external_member_id: b.external_member_id ?? null,
        }),
      };
    },
    result: data => toWire(data.createCustomerSession),
    status: 201,
    response: customerSessionResponse,
  },
];
