import type { OrganizationDirectory } from '../../identity/contract.js';
import type { PageRequest } from '../../../kit/graphql/pagination.js';
import type { CustomerSessionService } from '../customer-sessions/customer-session.service.js';
import type { JobRunner } from '../jobs/job-queue.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import type { SaleTax } from '../orders/sale-tax.js';

/** What the checkout service is built with (services.ts), and the filters of its list. */
export interface CheckoutDependencies {
  publicUrl: string;
  payments: PaymentProcessor;
  sessions: CustomerSessionService;
  /** Runs the fulfilment right after confirm commits; null: only a worker picks it up. */
  jobs: JobRunner | null;
  /** Each organization's time (its sandbox clock); absent: the request's clock. */
  clocks?: OrganizationClocks;
  /** Identity's organization settings (`prevent_trial_abuse`); absent: trials are not checked. */
  organizations?: OrganizationDirectory | null;
  /** What checkouts are taxed with (docs/tax.md#checkouts); absent: no tax (0). */
  tax?: SaleTax | null;
}

export interface CheckoutListQuery extends PageRequest {
  organizationId?: string[] | null;
  productId?: string[] | null;
  customerId?: string[] | null;
  status?: string[] | null;
  query?: string | null;
  sorting?: string[] | null;
}
