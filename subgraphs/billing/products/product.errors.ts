import { DomainError } from '../../../kit/errors.js';

/** `DELETE /v1/products/{id}` of a product in use (an order, a subscription or a discount names it): archive it instead. */
export class ProductNotDeletable extends DomainError {
  constructor() {
    super(
      'ProductNotDeletable',
      'This product has orders, subscriptions or discounts and cannot be deleted; archive it instead.',
      409,
    );
  }
}
