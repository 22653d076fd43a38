import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { Subscription } from './subscription.entity.js';
import { subscriptionEventPayload } from './subscription.wire.js';

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
