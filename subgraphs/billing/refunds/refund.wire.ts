import { snakeKeys } from '../../../kit/case.js';
import { plain } from '../shared/wire.js';

/**
 * A refund as Polar sends it (docs/polar/resources.md#refund), from `RefundType` or the GraphQL result of
 * `RefundFields`: snake_case, and `dispute` null (no disputes here). REST and the outbox both use it.
 */
export function refundWire(data: unknown): Record<string, unknown> {
  return { ...snakeKeys<Record<string, unknown>>(plain(data) ?? {}), dispute: null };
}
