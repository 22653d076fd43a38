import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import { recordEvent } from '../events/record-event.js';
import type { CheckoutType } from './checkout.type.js';
import { checkoutWire } from './checkout.wire.js';

/** `checkout.created` / `checkout.updated` for the write frame (kit/database/write). */
export function checkoutEvent(
  type: 'checkout.created' | 'checkout.updated',
  organizationId: string,
  checkout: CheckoutType,
  at: Date,
): OutboxEvent {
  return { organizationId, type, payload: checkoutWire(checkout), at };
}

/** The same event in the unit of work of `em`, for a write outside the frame (the fulfilment job). */
export function recordCheckoutEvent(
  em: EntityManager,
  organizationId: string,
  type: 'checkout.created' | 'checkout.updated',
  checkout: CheckoutType,
  at: Date,
): void {
  recordEvent(em, organizationId, type, checkoutWire(checkout), at);
}

/** An expired checkout: `checkout.expired`, then `checkout.updated` a millisecond later, with one body. */
export function checkoutExpiredEvents(organizationId: string, checkout: CheckoutType, at: Date): OutboxEvent[] {
  const payload = checkoutWire(checkout);
  return [
    { organizationId, type: 'checkout.expired', payload, at },
    { organizationId, type: 'checkout.updated', payload, at: new Date(at.getTime() + 1) },
  ];
}
