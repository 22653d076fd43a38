import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { CheckoutType } from './checkout.type.js';
import { checkoutWire } from './checkout.wire.js';

/** `checkout.created` / `checkout.updated`: the checkout's wire body as served, in the unit of work of `em`. */
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
export function recordCheckoutExpired(
  em: EntityManager,
  organizationId: string,
  checkout: CheckoutType,
  at: Date,
): void {
  const wire = checkoutWire(checkout);
  recordEvent(em, organizationId, 'checkout.expired', wire, at);
  recordEvent(em, organizationId, 'checkout.updated', wire, new Date(at.getTime() + 1));
}
