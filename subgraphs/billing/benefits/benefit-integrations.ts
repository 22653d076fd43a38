/**
 * The outside systems some benefit types act on (Discord roles, GitHub repository invitations, Slack
 * shared channels). A grant or revoke of such a benefit goes through the type's adapter; an adapter that
 * is not configured refuses with `IntegrationNotConfigured`, which the grant stores as its `error`
 * (Polar's `BenefitGrantError`) instead of failing the job: the customer's other benefits still arrive.
 */
export interface BenefitIntegration {
  readonly name: 'discord' | 'github_repository' | 'slack_shared_channel';
  /** Gives the customer access; answers the grant's properties (e.g. the invitation). */
  grant(input: IntegrationCall): Promise<Record<string, unknown>>;
  revoke(input: IntegrationCall): Promise<void>;
}

export interface IntegrationCall {
  benefitProperties: Record<string, unknown>;
  grantProperties: Record<string, unknown>;
  customerEmail: string | null;
}

export class IntegrationNotConfigured extends Error {
  readonly type = 'IntegrationNotConfigured';
  constructor(readonly integration: string) {
    super(
      `The ${integration} integration is not configured on this server: the benefit was recorded but nothing was granted there.`,
    );
  }
}

/** The adapter used until an operator configures the vendor's credentials: refuses, clearly. */
export class UnconfiguredIntegration implements BenefitIntegration {
  constructor(readonly name: BenefitIntegration['name']) {}
  async grant(): Promise<Record<string, unknown>> {
    throw new IntegrationNotConfigured(this.name);
  }
  async revoke(): Promise<void> {
    throw new IntegrationNotConfigured(this.name);
  }
}

export type BenefitIntegrations = Record<BenefitIntegration['name'], BenefitIntegration>;

/** No vendor credentials are configurable yet: every integration reports "not configured". */
export function defaultIntegrations(): BenefitIntegrations {
  return {
    discord: new UnconfiguredIntegration('discord'),
    github_repository: new UnconfiguredIntegration('github_repository'),
    slack_shared_channel: new UnconfiguredIntegration('slack_shared_channel'),
  };
}
