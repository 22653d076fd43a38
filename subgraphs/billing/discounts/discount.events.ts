import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import type { DiscountType } from './discount.type.js';
import { discountWire } from './discount.wire.js';

/** `discount.created` / `.updated` / `.deleted` for the write frame (kit/database/write): the discount's wire body. */
export function discountEvent(
  type: 'discount.created' | 'discount.updated' | 'discount.deleted',
  organizationId: string,
  discount: DiscountType,
  at: Date,
): OutboxEvent {
  return { organizationId, type, payload: discountWire(discount), at };
}
