import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { DiscountType } from './discount.type.js';
import { discountWire } from './discount.wire.js';

/** `discount.created` / `.updated` / `.deleted`: the discount's wire body, in the unit of work of `em`. */
export function recordDiscountEvent(
  em: EntityManager,
  organizationId: string,
  type: 'discount.created' | 'discount.updated' | 'discount.deleted',
  discount: DiscountType,
  at: Date,
): void {
  recordEvent(em, organizationId, type, discountWire(discount), at);
}
