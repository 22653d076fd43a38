import type { BillingContext } from '../context.js';
import { customerLoader } from './customer.loader.js';

/** `Customer` entities for other subgraphs: batched, and never another tenant's rows. */
export const customerReference = {
  Customer: {
    __resolveReference: (reference: { id: string }, ctx: BillingContext) => customerLoader(ctx).load(reference.id),
  },
};
