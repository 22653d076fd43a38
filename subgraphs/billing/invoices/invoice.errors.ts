import { DomainError } from '../../../kit/errors.js';

/** 404 before `POST …/invoice` (Polar's InvoiceDoesNotExist; its spec says ResourceNotFound, its server this). */
export class InvoiceDoesNotExist extends DomainError {
  constructor(orderId: string) {
    super('InvoiceDoesNotExist', `No invoice exists for order ${orderId}.`, 404);
  }
}

/** 422 with a string `detail`, as Polar answers it: an invoice needs the billing name and address. */
export class MissingInvoiceBillingDetails extends DomainError {
  constructor() {
    super(
      'MissingInvoiceBillingDetails',
      'Billing name and address are required to generate an invoice for this order.',
      422,
    );
  }
}

/** 409: a draft or void order has no invoice (Polar's OrderNotEligibleForInvoice). */
export class OrderNotEligibleForInvoice extends DomainError {
  constructor(orderId: string, status: string) {
    super(
      'OrderNotEligibleForInvoice',
      `Order ${orderId} is not eligible for invoice generation (current status: ${status}).`,
      409,
    );
  }
}

/** 403: an invoice link whose signature does not match, or whose hour is over (as an expired S3 link). */
export class InvalidInvoiceLink extends DomainError {
  constructor() {
    super('InvalidInvoiceLink', 'This invoice link is invalid or has expired.', 403);
  }
}
