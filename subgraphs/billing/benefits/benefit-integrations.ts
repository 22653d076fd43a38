import { IntegrationNotConfigured } from './benefit-integration.errors.js';
import { DiscordIntegration, GitHubRepositoryIntegration, SlackSharedChannelIntegration } from './vendor-adapters.js';

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

/** The vendors' credentials and API base URLs (kit/config.ts; README "Configuration"). */
export interface IntegrationSettings {
  DISCORD_BOT_TOKEN?: string;
  DISCORD_API_URL?: string;
  GITHUB_BENEFIT_TOKEN?: string;
  GITHUB_BENEFIT_API_URL?: string;
  SLACK_BOT_TOKEN?: string;
  SLACK_API_URL?: string;
}

export const VENDOR_API_DEFAULTS = {
  discord: 'https://discord.com/api/v10',
  github: 'https://api.github.com',
  slack: 'https://slack.com/api',
} as const;

/** An adapter per integration: the vendor's when its token is set, else one that reports "not configured". */
export function integrationsFromSettings(settings: IntegrationSettings = {}): BenefitIntegrations {
  return {
    discord: settings.DISCORD_BOT_TOKEN
      ? new DiscordIntegration(settings.DISCORD_API_URL ?? VENDOR_API_DEFAULTS.discord, settings.DISCORD_BOT_TOKEN)
      : new UnconfiguredIntegration('discord'),
    github_repository: settings.GITHUB_BENEFIT_TOKEN
      ? new GitHubRepositoryIntegration(
          settings.GITHUB_BENEFIT_API_URL ?? VENDOR_API_DEFAULTS.github,
          settings.GITHUB_BENEFIT_TOKEN,
        )
      : new UnconfiguredIntegration('github_repository'),
    slack_shared_channel: settings.SLACK_BOT_TOKEN
      ? new SlackSharedChannelIntegration(settings.SLACK_API_URL ?? VENDOR_API_DEFAULTS.slack, settings.SLACK_BOT_TOKEN)
      : new UnconfiguredIntegration('slack_shared_channel'),
  };
}

/** No credentials: every integration reports "not configured". */
export function defaultIntegrations(): BenefitIntegrations {
  return integrationsFromSettings({});
}
