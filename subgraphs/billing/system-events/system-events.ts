import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { monthOf, UsageEventQueries } from '../usage-events/usage-event.queries.js';
import { UsageEvent } from '../usage-events/usage-event.entity.js';

/** The system events recorded today (docs/usage-events.md#system-events), with Polar's metadata. */
export type SystemEventName =
  | 'customer.created'
  | 'benefit.granted'
  | 'benefit.cycled'
  | 'benefit.revoked'
  | 'meter.credited'
  | 'meter.reset';

/**
 * Records a system event (`source: "system"`) in the usage event stream, in the unit of work of the change it
 * describes: persisted by the same flush, committed or rolled back with it. The month's partition is made first
 * when this process has not seen it (usage-event.queries.ts).
 */
export async function recordSystemEvent(
  em: EntityManager,
  event: {
    organizationId: string;
    customerId: string | null;
    name: SystemEventName;
    metadata: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await new UsageEventQueries(em).ensurePartitions([monthOf(event.at)]);
  em.create(UsageEvent, {
    id: randomUUID(),
    organizationId: event.organizationId,
    name: event.name,
    source: 'system',
    timestamp: event.at,
    ingestedAt: event.at,
    customerId: event.customerId,
    metadata: event.metadata,
  } as UsageEvent);
}
