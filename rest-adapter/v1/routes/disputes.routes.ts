import { z } from 'zod';
import {
  DISPUTE_DEFAULT_SORTING,
  DISPUTE_SORT_KEYS,
  DISPUTE_STATUSES,
  DISPUTES_READ,
  DISPUTES_WRITE,
} from '../../../subgraphs/billing/contract.js';
import { customerResponse } from './customers.schemas.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import type { Route } from './route.js';

const many = <T extends z.ZodType>(item: T) => z.array(item).optional();
const dateTime = z.iso.datetime({ offset: true });
const status = z.enum(DISPUTE_STATUSES as [string, ...string[]]);

/** Polar's Dispute (docs/disputes.md). */
export const disputeResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  status,
  resolved: z.boolean(),
  closed: z.boolean(),
  amount: z.number().int().meta({ description: 'Disputed, net of tax, in minor units.' }),
  tax_amount: z.number().int(),
  currency: z.string(),
  reason: z.string().nullable(),
  evidence_due_by: dateTime.nullable(),
  past_due: z.boolean(),
  order_id: z.uuid(),
  payment_id: z.uuid(),
  customer: customerResponse,
  case_id: z.uuid().nullable(),
});

const SANDBOX =
  'Sandbox only (production answers 404): the test processor reports the dispute as Stripe would ' +
  '(`charge.dispute.*`), through the same handler, so a merchant can rehearse a chargeback.';

/** `/v1/disputes/`: list and get (read path), accept (through the processor); the sandbox's rehearsal. */
export const disputeRoutes: Route[] = [
  {
    operationId: 'disputes:list',
    method: 'get',
    path: '/v1/disputes/',
    summary: 'List disputes',
    tag: 'disputes',
    access: DISPUTES_READ,
    query: z.object({
      organization_id: many(z.uuid()),
      order_id: many(z.uuid()),
      status: many(status),
      ...pageQuery,
      sorting: sortingQuery(DISPUTE_SORT_KEYS, DISPUTE_DEFAULT_SORTING),
    }),
    operation: 'DisputesList',
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => toWire(data.disputes),
    status: 200,
    response: listOf(disputeResponse),
  },
  {
    operationId: 'disputes:get',
    method: 'get',
    path: '/v1/disputes/{id}',
    summary: 'Get a dispute',
    tag: 'disputes',
    access: DISPUTES_READ,
    params: idParams,
    operation: 'DisputesGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.dispute),
    status: 200,
    response: disputeResponse,
    errors: [404],
  },
  {
    operationId: 'disputes:accept',
    method: 'post',
    path: '/v1/disputes/{id}/accept',
    summary: 'Accept a dispute',
    description:
      'Concedes the chargeback: the processor closes the dispute, which becomes `lost`. 409 `DisputeNotOpenError` ' +
      'unless the dispute is `needs_response`.',
    tag: 'disputes',
    access: DISPUTES_WRITE,
    params: idParams,
    operation: 'DisputesAccept',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.acceptDispute),
    status: 200,
    response: disputeResponse,
    errors: [404, 409],
  },
  {
    operationId: 'sandbox:disputes_open',
    method: 'post',
    path: '/v1/sandbox/disputes/',
    summary: "Open a dispute on an order's payment (sandbox)",
    description: `${SANDBOX} The dispute needs a response within 7 days of the organization's clock; \`amount\` (tax included) defaults to the whole payment. 422 at \`order_id\` for an unknown order or one without a succeeded payment.`,
    tag: 'sandbox',
    sandboxOnly: true,
    access: DISPUTES_WRITE,
    body: z.strictObject({
      order_id: z.uuid(),
      amount: z.number().int().gt(0).nullish(),
      reason: z.string().min(1).nullish(),
    }),
    operation: 'SandboxDisputesOpen',
    variables: ({ body }) => ({ input: toInput(body) }),
    result: data => toWire(data.openSandboxDispute),
    status: 201,
    response: disputeResponse,
    errors: [404],
  },
  {
    operationId: 'sandbox:disputes_update',
    method: 'post',
    path: '/v1/sandbox/disputes/{id}/status',
    summary: 'Move a dispute as the card network would (sandbox)',
    description: `${SANDBOX} A closed dispute (prevented, won, lost) keeps its outcome.`,
    tag: 'sandbox',
    sandboxOnly: true,
    access: DISPUTES_WRITE,
    params: idParams,
    body: z.strictObject({ status }),
    operation: 'SandboxDisputesUpdate',
    variables: ({ params, body }) => ({ id: params.id, status: body.status }),
    result: data => toWire(data.updateSandboxDispute),
    status: 200,
    response: disputeResponse,
    errors: [404],
  },
];
