import { snakeKeys } from '../../../kit/case.js';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { recordEvent } from '../events/record-event.js';
import type { Customer } from './customer.entity.js';
import { CustomerType } from './customer.type.js';

/** What a customer change records for webhooks (customer.created / customer.updated / customer.deleted). */
export type CustomerEventType = 'customer.created' | 'customer.updated' | 'customer.deleted';

/** Where customer changes are announced: added to the unit of work, so written by the same flush as the change. */
export type CustomerEventRecorder = (ctx: RequestContext, type: CustomerEventType, customer: Customer) => void;

/** The webhook `data` of a customer event: the customer's wire body (snake_case), as the REST API serves it. */
export function customerEventPayload(customer: Customer): Record<string, unknown> {
  return snakeKeys<Record<string, unknown>>(CustomerType.fromEntity(customer));
}

/** A customer event for the write frame (kit/database/write). */
export function customerEvent(type: CustomerEventType, customer: Customer, at: Date): OutboxEvent {
  return { organizationId: customer.organizationId, type, payload: customerEventPayload(customer), at };
}

/** The default recorder outside the write frame: the billing outbox, with the customer's wire body as payload. */
export const recordCustomerEvent: CustomerEventRecorder = (ctx, type, customer) => {
  recordEvent(ctx.em, customer.organizationId, type, customerEventPayload(customer), ctx.clock.now());
};
