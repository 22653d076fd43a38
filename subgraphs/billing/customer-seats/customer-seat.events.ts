import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { snakeKeys } from '../../../kit/case.js';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import { enqueueJob } from '../jobs/job-queue.js';
import type { CustomerSeat } from './customer-seat.entity.js';
import { customerSeatRead } from './customer-seat.read.js';
import { CustomerSeatType } from './customer-seat.type.js';
import { customerSeatWire } from './customer-seat.wire.js';

export type SeatEventType = 'customer_seat.assigned' | 'customer_seat.claimed' | 'customer_seat.revoked';

/** A seat event: the seat's wire body after the change, read as the REST API serves it. */
export async function seatEvent(
  em: EntityManager,
  type: SeatEventType,
  seat: CustomerSeat,
  at: Date,
): Promise<OutboxEvent> {
  const [row] = await customerSeatRead.byIdsIn(em, { organizationIds: [seat.organizationId], customerId: null }, [
    seat.id,
  ]);
  const payload = row
    ? customerSeatWire(CustomerSeatType.fromRow(row))
    : snakeKeys<Record<string, unknown>>({ id: seat.id });
  return { organizationId: seat.organizationId, type, payload, at };
}

/**
 * A seat was claimed or revoked: its container's benefits are reconciled by the durable
 * `benefits.reconcile` job (benefits/benefit-grants.job.ts), enqueued in the seat's own transaction (to run
 * now by the job worker's clock), so
 * the holder gains or loses them with their `benefit_grant.*` events (docs/customer-seats.md#benefits).
 */
export async function enqueueSeatBenefits(em: EntityManager, seat: CustomerSeat, runAt: Date): Promise<void> {
  const source = seat.subscriptionId ? 'subscription' : 'order';
  const id = (seat.subscriptionId ?? seat.orderId) as string;
  await enqueueJob(em, {
    kind: 'benefits.reconcile',
    key: `benefits.reconcile:${source}:${id}:seat:${seat.id}:${randomUUID()}`,
    payload: { source, id, eventType: `customer_seat.${seat.status}` },
    runAt,
  });
}
