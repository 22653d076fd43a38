import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { Refund } from './refund.entity.js';
import { RefundType } from './refund.type.js';
import { refundWire } from './refund.wire.js';

/** `refund.created` / `refund.updated`: the refund's wire body, in the unit of work of `em`. */
export function recordRefundEvent(
  em: EntityManager,
  type: 'refund.created' | 'refund.updated',
  refund: Refund,
  at: Date,
): void {
  recordEvent(em, refund.organizationId, type, refundWire(RefundType.fromEntity(refund)), at);
}
