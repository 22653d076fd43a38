import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import type { Order } from './order.entity.js';
import { orderRead } from './order.read.js';
import { OrderType } from './order.type.js';
import { orderWire } from './order.wire.js';

/**
 * The order as served after a change, and the webhook `data` of its events: read back ONCE through the
 * read path in the caller's transaction (after its flush), so the response and the payload are the
 * same row.
 */
export async function readOrderBack(
  em: EntityManager,
  order: Pick<Order, 'id' | 'organizationId'>,
): Promise<{ order: OrderType; payload: Record<string, unknown> }> {
  const [row] = await orderRead.byIdsIn(em, { organizationIds: [order.organizationId], customerId: null }, [order.id]);
  if (!row) throw new Error(`order ${order.id} not readable in its own organization`);
  const shaped = OrderType.fromRow(row);
  return { order: shaped, payload: orderWire(shaped) };
}

/** The webhook `data` of an order event: the order read back in the caller's transaction, on the wire. */
export async function orderEventPayload(em: EntityManager, order: Order): Promise<Record<string, unknown>> {
  return (await readOrderBack(em, order)).payload;
}

/** `order.updated` for the write frame (kit/database/write): the order's payload at `at`. */
export function orderUpdated(
  order: Pick<Order, 'organizationId'>,
  payload: Record<string, unknown>,
  at: Date,
): OutboxEvent {
  return { organizationId: order.organizationId, type: 'order.updated', payload, at };
}
