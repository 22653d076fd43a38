import { snakeKeys } from '../../../kit/case.js';
import { plain } from '../shared/wire.js';

type Wire = Record<string, any>;

/**
 * A seat as Polar sends it (CustomerSeat), from `CustomerSeatType` or the GraphQL result of
 * `CustomerSeatFields`: snake_case, `seat_metadata` as stored (its keys untouched), `member` the seat's
 * member (Polar's Member) or null.
 */
export function customerSeatWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  wire.seat_metadata = (data as { seatMetadata?: object | null }).seatMetadata ?? {};
  wire.member ??= null;
  return wire;
}
