import { DomainError } from '../../../kit/errors.js';

/** 404: the order has no receipt, because no money was taken for it yet (Polar's ReceiptNotAllocated). */
export class ReceiptNotAllocated extends DomainError {
  constructor(orderId: string) {
    super('ReceiptNotAllocated', `No receipt allocated for order ${orderId}.`, 404);
  }
}

/** 403: a receipt link whose signature does not match, or whose hour is over (as an invoice link). */
export class InvalidReceiptLink extends DomainError {
  constructor() {
    super('InvalidReceiptLink', 'This receipt link is invalid or has expired.', 403);
  }
}
