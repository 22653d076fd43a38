import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { Subscription } from './subscription.entity.js';
import { plain } from '../shared/wire.js';
import { subscriptionRead } from './subscription.read.js';
import { BillingSubscriptionType } from './subscription.type.js';
import { subscriptionWire } from './subscription.wire.js';

/**
 * Writes the outbox rows of one change of a subscription (`subscription.updated` first, then the
 * transition's own kinds), inside the caller's transaction. Injected into the write use cases so they
 * do not depend on how payloads are rendered.
 */
export type SubscriptionChangeRecorder = (
  em: EntityManager,
  subscription: Subscription,
  types: readonly string[],
  now: Date,
) => Promise<void>;

/**
 * The outbox rows of one change (`subscription.updated`, `.canceled`, `.uncanceled`, `.revoked`), added to
 * the caller's unit of work so they commit with the change or not at all. The embedded rows are loaded
 * once per change, not once per row. The outbox is read in (created_at, id) order: the rows of one change
 * are a millisecond apart so a consumer sees `subscription.updated` before `.canceled` before `.revoked`,
 * as Polar sends them.
 */
export const recordSubscriptionEvents: SubscriptionChangeRecorder = async (em, s, types, now) => {
  const payload = await subscriptionEventPayload(em, s);
  for (const [i, type] of types.entries())
    recordEvent(em, s.organizationId, type, payload, new Date(now.getTime() + i));
};

/**
 * The webhook `data` of a subscription event: the subscription read back through the read path in
 * the caller's transaction (after its flush), shaped by the same `BillingSubscriptionType.fromRow` as
 * GraphQL, and put on the wire by the same `subscriptionWire` as REST.
 */
export async function subscriptionEventPayload(em: EntityManager, s: Subscription): Promise<Record<string, unknown>> {
  const [row] = await subscriptionRead.byIdsIn(em, { organizationIds: [s.organizationId], customerId: null }, [s.id]);
  if (!row) throw new Error(`subscription ${s.id} not readable in its own organization`);
  return subscriptionWireOf(BillingSubscriptionType.fromRow(row));
}

/**
 * The wire JSON of a shaped subscription, as REST sends it: Polar's Subscription carries no
 * organization (the REST operation does not select it either).
 */
export function subscriptionWireOf(subscription: BillingSubscriptionType): Record<string, unknown> {
  const { organization: _organization, organizationId: _organizationId, ...shape } = subscription;
  return subscriptionWire(plain(shape));
}
