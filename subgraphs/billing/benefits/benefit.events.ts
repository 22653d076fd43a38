import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { BenefitType } from './benefit.type.js';
import { benefitWire } from './benefit.wire.js';

/** `benefit.created` / `benefit.updated` (a soft delete too): the benefit's wire body, in the unit of work of `em`. */
export function recordBenefitEvent(
  em: EntityManager,
  organizationId: string,
  type: 'benefit.created' | 'benefit.updated',
  benefit: BenefitType,
  at: Date,
): void {
  recordEvent(em, organizationId, type, benefitWire(benefit), at);
}
