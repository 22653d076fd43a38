import { TestProcessorCharge } from './test-charge.entity.js';
import { TestProcessorCustomer } from './test-customer.entity.js';
import { TestProcessorPaymentMethod } from './test-payment-method.entity.js';
import { TestProcessorRefund } from './test-refund.entity.js';

/** The test processor's tables, registered with the billing ORM (`orm.ts`). */
export const testProcessorEntities = [
  TestProcessorCustomer,
  TestProcessorPaymentMethod,
  TestProcessorCharge,
  TestProcessorRefund,
];
