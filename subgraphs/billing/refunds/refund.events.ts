import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import { recordEvent } from '../events/record-event.js';
import type { Refund } from './refund.entity.js';
import { RefundType } from './refund.type.js';
import { refundWire } from './refund.wire.js';

/** `refund.created` / `refund.updated` for the write frame (kit/database/write): the refund's wire body. */
export function refundEvent(type: 'refund.created' | 'refund.updated', refund: Refund, at: Date): OutboxEvent {
  return { organizationId: refund.organizationId, type, payload: refundWire(RefundType.fromEntity(refund)), at };
}

/** The same event in the unit of work of `em`, for a settlement outside the frame (refund-processor-events.ts). */
export function recordRefundEvent(
  em: EntityManager,
  type: 'refund.created' | 'refund.updated',
  refund: Refund,
  at: Date,
): void {
  const event = refundEvent(type, refund, at);
  recordEvent(em, event.organizationId, event.type, event.payload, at);
}
