import { DomainError } from '../../../kit/errors.js';

/** 409: only a dispute that needs a response can be conceded (Polar's DisputeNotOpenError). */
export class DisputeNotOpenError extends DomainError {
  constructor(disputeId: string) {
    super('DisputeNotOpenError', `Dispute ${disputeId} is not awaiting a response.`, 409);
  }
}
