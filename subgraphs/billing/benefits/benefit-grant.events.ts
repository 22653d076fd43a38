import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../customers/customer.entity.js';
import { recordEvent } from '../events/record-event.js';
import { recordSystemEvent, type SystemEventName } from '../system-events/system-events.js';
import type { Benefit } from './benefit.entity.js';
import type { BenefitGrant } from './benefit-grant.entity.js';
import { BenefitGrantType } from './benefit.type.js';
import { benefitGrantWire, customerStateWire } from './benefit.wire.js';
import type { loadCustomerState } from './customer-state.read.js';

/** The webhook `data` of a grant event: the grant with its customer and benefit, on the wire. */
export function benefitGrantEventPayload(
  grant: BenefitGrant,
  benefit: Benefit,
  customer: Customer,
): Record<string, unknown> {
  return benefitGrantWire(BenefitGrantType.fromEntity(grant, customer, benefit));
}

/** `benefit_grant.created` / `.revoked` / `.updated`, in the unit of work of `em`. */
export function recordBenefitGrantEvent(
  em: EntityManager,
  type: string,
  grant: BenefitGrant,
  benefit: Benefit,
  customer: Customer,
  at: Date,
): void {
  recordEvent(em, grant.organizationId, type, benefitGrantEventPayload(grant, benefit, customer), at);
}

/** `benefit_grant.updated` of a changed grant, carrying the properties it had before (Polar's `previous_properties`). */
export function recordBenefitGrantUpdated(
  em: EntityManager,
  grant: BenefitGrant,
  benefit: Benefit,
  customer: Customer,
  previous: unknown,
  at: Date,
): void {
  recordEvent(
    em,
    grant.organizationId,
    'benefit_grant.updated',
    { ...benefitGrantEventPayload(grant, benefit, customer), previous_properties: previous },
    at,
  );
}

/** `customer.state_changed` with the state as the change leaves it. */
export function recordCustomerStateChanged(
  em: EntityManager,
  organizationId: string,
  state: NonNullable<Awaited<ReturnType<typeof loadCustomerState>>>,
  at: Date,
): void {
  recordEvent(em, organizationId, 'customer.state_changed', customerStateWire(state), at);
}

/** Polar's system event in the usage stream for each grant webhook event. */
const SYSTEM_EVENT_OF: Record<string, SystemEventName> = {
  'benefit_grant.created': 'benefit.granted',
  'benefit_grant.cycled': 'benefit.cycled',
  'benefit_grant.revoked': 'benefit.revoked',
};

/** A grant's change: the webhook event, and Polar's system event in the usage stream (`benefit.granted`, …). */
export async function recordGrantChange(
  em: EntityManager,
  type: 'benefit_grant.created' | 'benefit_grant.revoked' | 'benefit_grant.cycled',
  grant: BenefitGrant,
  benefit: Benefit,
  customer: Customer,
  at: Date,
): Promise<void> {
  recordBenefitGrantEvent(em, type, grant, benefit, customer, at);
  await recordSystemEvent(em, {
    organizationId: grant.organizationId,
    customerId: customer.id,
    name: SYSTEM_EVENT_OF[type],
    metadata: { benefit_id: benefit.id, benefit_grant_id: grant.id, benefit_type: benefit.type },
    at,
  });
}
