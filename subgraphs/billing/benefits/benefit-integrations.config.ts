import { type BenefitIntegrations, UnconfiguredIntegration } from './benefit-integrations.js';
import { DiscordIntegration, GitHubRepositoryIntegration, SlackSharedChannelIntegration } from './vendor-adapters.js';

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
