import { DomainError } from '../../../kit/errors.js';

/** The seat errors of Polar's customer_seat service, with its class names, statuses and detail texts. */

/** 400: every seat of the subscription or order is taken, or the order is not paid yet. */
export class SeatNotAvailable extends DomainError {
  constructor(sourceId: string, reason?: string) {
    super('SeatNotAvailable', reason ?? `No available seats for ${sourceId}`, 400);
  }
}

/** 400: unknown, expired, revoked or already claimed invitation. */
export class InvalidInvitationToken extends DomainError {
  constructor() {
    super('InvalidInvitationToken', 'Invalid or expired invitation token', 400);
  }
}

/** 403: the organization has not switched on `feature_settings.seat_based_pricing_enabled`. */
export class FeatureNotEnabled extends DomainError {
  constructor() {
    super('FeatureNotEnabled', 'Seat-based pricing is not enabled for this organization', 403);
  }
}

/** 400: this customer already holds a seat of the subscription or order. */
export class SeatAlreadyAssigned extends DomainError {
  constructor(identifier: string) {
    super('SeatAlreadyAssigned', `Seat already assigned to customer ${identifier}`, 400);
  }
}

/** 400: only a pending seat has an invitation to send again. */
export class SeatNotPending extends DomainError {
  constructor() {
    super('SeatNotPending', 'Seat is not in pending status', 400);
  }
}

/** 400: not exactly one of email, external_customer_id, customer_id (or no subscription/order named). */
export class InvalidSeatAssignmentRequest extends DomainError {
  constructor(message = 'Exactly one of email, external_customer_id, or customer_id must be provided') {
    super('InvalidSeatAssignmentRequest', message, 400);
  }
}

/** 404: the customer named by id or external id is not the organization's. */
export class CustomerNotFound extends DomainError {
  constructor(identifier: string) {
    super('CustomerNotFound', `Customer not found: ${identifier}`, 404);
  }
}

/** 404: `member_id` names no live member of the seat's billing customer. */
export class MemberNotFound extends DomainError {
  constructor(identifier: string) {
    super('MemberNotFound', `Member not found: ${identifier}`, 404);
  }
}
