import type { Clock } from '../../kit/clock.js';

/**
 * The billing use cases, built once per environment and shared by resolvers and jobs. Each domain
 * folder adds its service here.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BillingServices {}

export interface BillingServiceDependencies {
  secret: string;
  clock: Clock;
  /** Public base URL of the environment (customer portal links). */
  publicUrl: string;
}

export function createBillingServices(_deps: BillingServiceDependencies): BillingServices {
  return {};
}
