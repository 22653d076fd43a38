import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import type { BenefitType } from './benefit.type.js';
import { benefitWire } from './benefit.wire.js';

/** What a benefit change records for webhooks (a soft delete is a `benefit.updated`, as Polar). */
export type BenefitEventType = 'benefit.created' | 'benefit.updated';

/** `benefit.created` / `benefit.updated` for the write frame (kit/database/write): the benefit's wire body. */
export function benefitEvent(
  type: BenefitEventType,
  organizationId: string,
  benefit: BenefitType,
  at: Date,
): OutboxEvent {
  return { organizationId, type, payload: benefitWire(benefit), at };
}
