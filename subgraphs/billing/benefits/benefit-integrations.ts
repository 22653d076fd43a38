import { IntegrationNotConfigured } from './benefit-integration.errors.js';

export {
  BenefitActionRequired,
  IntegrationNotConfigured,
  isRetriable,
  VendorUnavailable,
} from './benefit-integration.errors.js';

/**
 * The outside systems some benefit types act on (Discord roles, GitHub repository collaborators, Slack
 * shared channels). A grant or revoke of such a benefit goes through the type's adapter. What an adapter
 * throws decides what happens to the grant (benefit-grants.engine.ts), as Polar's strategies do:
 * - `IntegrationNotConfigured`: the operator set no credentials; stored as the grant's `error`.
 * - `BenefitActionRequired`: the customer must act (connect an account, enter an e-mail) or the vendor
 *   refused the call (a 4xx); stored as the grant's `error`, the grant waits (no retry).
 * - `VendorUnavailable`: the vendor could not answer (network, 429, 5xx); stored as the grant's `error`
 *   and the job is retried with the job queue's backoff.
 */
export interface BenefitIntegration {
  readonly name: 'discord' | 'github_repository' | 'slack_shared_channel';
  /** Gives the customer access; answers the grant's new properties (Polar's `BenefitGrant…Properties`). */
  grant(input: IntegrationCall): Promise<Record<string, unknown>>;
  /** Takes it away; answers the properties kept on the revoked grant (e.g. the account, for a re-grant). */
  revoke(input: IntegrationCall): Promise<Record<string, unknown>>;
}

export interface IntegrationCall {
  benefitProperties: Record<string, unknown>;
  grantProperties: Record<string, unknown>;
  customer: IntegrationCustomer;
}

export interface IntegrationCustomer {
  id: string;
  email: string | null;
  name: string | null;
  metadata: Record<string, unknown>;
}

/** The adapter used until an operator configures the vendor's credentials: refuses, clearly. */
export class UnconfiguredIntegration implements BenefitIntegration {
  constructor(readonly name: BenefitIntegration['name']) {}
  async grant(): Promise<Record<string, unknown>> {
    throw new IntegrationNotConfigured(this.name);
  }
  async revoke(): Promise<Record<string, unknown>> {
    throw new IntegrationNotConfigured(this.name);
  }
}

export type BenefitIntegrations = Record<BenefitIntegration['name'], BenefitIntegration>;
