import { BenefitActionRequired, VendorUnavailable } from './benefit-integration.errors.js';
import type { BenefitIntegration, IntegrationCall, IntegrationCustomer } from './benefit-integrations.js';
import { vendorCall, vendorUrl } from './vendor-http.js';

/**
 * The vendors' adapters (docs/polar/resources.md#benefit; Polar's server/polar/benefit/strategies/*). The account to
 * grant to is the grant's `properties.account_id`, which the customer sets through
 * `PATCH /v1/customer-portal/benefit-grants/{id}`: without it the grant waits (`BenefitActionRequired`).
 * There are no customer OAuth connections here, so the id is taken as given: the Discord user id, the
 * GitHub login. `granted_account_id` records who actually holds it, so a changed account or role is
 * revoked before the new one is granted.
 */

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** A guild role (`PUT /guilds/{guild}/members/{user}/roles/{role}`); revoked by removing it, or kicking. */
export class DiscordIntegration implements BenefitIntegration {
  readonly name = 'discord' as const;
  constructor(
    private readonly baseUrl: string,
    private readonly botToken: string,
  ) {}

  async grant({ benefitProperties, grantProperties, customer }: IntegrationCall): Promise<Record<string, unknown>> {
    const guildId = guildOf(benefitProperties);
    const roleId = String(benefitProperties.role_id);
    const account = str(grantProperties.account_id);
    const granted = str(grantProperties.granted_account_id);
    const previousGuild = str(grantProperties.guild_id);
    const previousRole = str(grantProperties.role_id);
    if (
      granted &&
      (granted !== account || (previousGuild && previousGuild !== guildId) || (previousRole && previousRole !== roleId))
    )
      await this.revoke({ benefitProperties, grantProperties, customer });
    if (!account) throw new BenefitActionRequired('The customer needs to connect their Discord account');
    await this.call('PUT', 'guilds', guildId, 'members', account, 'roles', roleId);
    return { ...grantProperties, guild_id: guildId, role_id: roleId, granted_account_id: account };
  }

  async revoke({ benefitProperties, grantProperties }: IntegrationCall): Promise<Record<string, unknown>> {
    const guildId = str(grantProperties.guild_id);
    const roleId = str(grantProperties.role_id);
    const account = str(grantProperties.granted_account_id);
    const kept = grantProperties.account_id != null ? { account_id: grantProperties.account_id } : {};
    if (!(guildId && roleId && account)) return kept;
    if (benefitProperties.kick_member === true) await this.call('DELETE', 'guilds', guildId, 'members', account);
    else await this.call('DELETE', 'guilds', guildId, 'members', account, 'roles', roleId);
    // The account stays: a re-grant (reactivation) gives the role back without asking again.
    return kept;
  }

  private call(method: 'PUT' | 'DELETE', ...path: string[]) {
    return vendorCall({
      vendor: 'Discord',
      method,
      url: vendorUrl(this.baseUrl, ...path),
      headers: {
        authorization: `Bot ${this.botToken}`,
        'user-agent': 'DiscordBot (https://github.com/polarsource/polar, 1.0)',
      },
    });
  }
}

/**
 * The benefit's server: its `guild_id`, or the one its `guild_token` carries (a bare id, or a JWT with a
 * `guild_id` claim as Polar's Discord app issues them).
 */
function guildOf(properties: Record<string, unknown>): string {
  const token = str(properties.guild_token);
  let fromToken: string | null = token && /^\d{1,20}$/.test(token) ? token : null;
  if (!fromToken && token?.split('.').length === 3) {
    try {
      fromToken = str(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).guild_id);
    } catch {
      fromToken = null;
    }
  }
  const guild = str(properties.guild_id) ?? fromToken;
  if (!guild) throw new BenefitActionRequired('The Discord benefit names no server: set its guild_id.');
  return guild;
}

/** A repository collaborator (`PUT /repos/{owner}/{repo}/collaborators/{username}` with the permission). */
export class GitHubRepositoryIntegration implements BenefitIntegration {
  readonly name = 'github_repository' as const;
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async grant({ benefitProperties, grantProperties, customer }: IntegrationCall): Promise<Record<string, unknown>> {
    const owner = String(benefitProperties.repository_owner);
    const repository = String(benefitProperties.repository_name);
    const permission = String(benefitProperties.permission ?? 'pull');
    const account = str(grantProperties.account_id);
    const granted = str(grantProperties.granted_account_id);
    const changed = (key: string, value: string) =>
      str(grantProperties[key]) !== null && grantProperties[key] !== value;
    if (
      granted &&
      (granted !== account ||
        changed('repository_owner', owner) ||
        changed('repository_name', repository) ||
        changed('permission', permission))
    )
      await this.revoke({ benefitProperties, grantProperties, customer });
    if (!account) throw new BenefitActionRequired('The customer needs to connect their GitHub account');
    await this.call('PUT', { permission }, 'repos', owner, repository, 'collaborators', account);
    return {
      ...grantProperties,
      repository_owner: owner,
      repository_name: repository,
      permission,
      granted_account_id: account,
    };
  }

  async revoke({ grantProperties }: IntegrationCall): Promise<Record<string, unknown>> {
    const account = str(grantProperties.granted_account_id);
    const owner = str(grantProperties.repository_owner);
    const repository = str(grantProperties.repository_name);
    const kept = grantProperties.account_id != null ? { account_id: grantProperties.account_id } : {};
    if (!(account && owner && repository)) return kept;
    await this.call('DELETE', undefined, 'repos', owner, repository, 'collaborators', account);
    return kept;
  }

  private call(method: 'PUT' | 'DELETE', body: unknown, ...path: string[]) {
    return vendorCall({
      vendor: 'GitHub',
      method,
      url: vendorUrl(this.baseUrl, ...path),
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'polar-compatible-billing',
      },
      body,
    });
  }
}

/** Slack answers 200 with `ok: false`; these errors are worth a retry (Polar's `_TRANSIENT_ERRORS`). */
const SLACK_TRANSIENT = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable']);

/**
 * A Slack Connect channel per grant: `conversations.create` (named from the benefit's
 * `channel_name_template`), the merchant's `team_invitees` and `welcome_message`, then
 * `conversations.inviteShared` to the e-mail the customer entered (`invited_email`, through the portal
 * PATCH: without it the grant waits). Revoked: `conversations.archive` when `archive_on_revoke`; a
 * re-grant unarchives the same channel.
 */
export class SlackSharedChannelIntegration implements BenefitIntegration {
  readonly name = 'slack_shared_channel' as const;
  constructor(
    private readonly baseUrl: string,
    private readonly botToken: string,
  ) {}

  async grant({ benefitProperties, grantProperties, customer }: IntegrationCall): Promise<Record<string, unknown>> {
    const email = str(grantProperties.invited_email);
    if (!email)
      throw new BenefitActionRequired(
        'Enter the email of an admin in your Slack workspace to receive the Slack Connect invite.',
      );
    if (str(grantProperties.channel_id) && str(grantProperties.invite_id)) return grantProperties;
    let channelId = str(grantProperties.channel_id);
    let channelName = str(grantProperties.channel_name) ?? '';
    if (channelId) {
      const unarchived = await this.call('conversations.unarchive', { channel: channelId }, ['not_archived']);
      if (unarchived.error === 'channel_not_found') channelId = null;
    }
    if (!channelId) {
      const name = channelNameOf(String(benefitProperties.channel_name_template ?? '{customer_name}'), customer);
      const created = await this.call('conversations.create', {
        name,
        is_private: benefitProperties.private !== false,
      });
      channelId = String(created.channel?.id);
      channelName = String(created.channel?.name ?? name);
      const team = (benefitProperties.team_invitees ?? []) as string[];
      // Best effort, as Polar: the customer's invite matters, the merchant's own seats can be fixed by hand.
      if (team.length) await this.call('conversations.invite', { channel: channelId, users: team.join(',') }, ['*']);
      const welcome = str(benefitProperties.welcome_message);
      if (welcome) await this.call('chat.postMessage', { channel: channelId, text: welcome }, ['*']);
    }
    const provisioned = { ...grantProperties, channel_id: channelId, channel_name: channelName };
    try {
      const invite = await this.call('conversations.inviteShared', { channel: channelId, emails: [email] });
      return {
        ...provisioned,
        ...(str(invite.invite_id) ? { invite_id: invite.invite_id } : {}),
        ...(str(invite.url) ? { invite_url: invite.url } : {}),
      };
    } catch (error) {
      // The channel exists now: keep it on the grant so a retry invites into it instead of creating another.
      if (error instanceof BenefitActionRequired || error instanceof VendorUnavailable)
        (error as { grantProperties: Record<string, unknown> | null }).grantProperties = provisioned;
      throw error;
    }
  }

  async revoke({ benefitProperties, grantProperties }: IntegrationCall): Promise<Record<string, unknown>> {
    const channelId = str(grantProperties.channel_id);
    const revoked = (keepChannel: boolean) => ({
      invited_email: grantProperties.invited_email ?? '',
      ...(keepChannel && channelId ? { channel_id: channelId, channel_name: grantProperties.channel_name ?? '' } : {}),
    });
    if (benefitProperties.archive_on_revoke === false || !channelId) return revoked(true);
    const result = await this.call('conversations.archive', { channel: channelId }, [
      'already_archived',
      'channel_not_found',
    ]);
    return revoked(result.error !== 'channel_not_found');
  }

  /** A Web API method; `tolerated` errors are answered (`*`: any), transient ones retried, others stored. */
  private async call(method: string, body: unknown, tolerated: string[] = []): Promise<Record<string, any>> {
    const result =
      (await vendorCall({
        vendor: 'Slack',
        method: 'POST',
        url: vendorUrl(this.baseUrl, method),
        headers: { authorization: `Bearer ${this.botToken}` },
        body,
      })) ?? {};
    if (result.ok === true) return result;
    const error = String(result.error ?? 'unknown_error');
    if (tolerated.includes('*') || tolerated.includes(error)) return { ...result, error };
    if (SLACK_TRANSIENT.has(error)) throw new VendorUnavailable(`Slack ${method} failed: ${error}`);
    throw new BenefitActionRequired(`Slack ${method} error: ${error}`);
  }
}

const SLACK_NAME_MAX = 80;

/**
 * Polar's template (`{customer_name}`, `{customer_email_local}`, `{metadata.<key>}`) rendered and
 * slugified, with the customer id's first 4 hex digits as suffix so two customers never collide.
 */
export function channelNameOf(template: string, customer: IntegrationCustomer): string {
  const email = customer.email ?? '';
  const rendered = template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    if (name === 'customer_name') return customer.name || email || 'customer';
    if (name === 'customer_email_local') return email.split('@', 1)[0] || 'customer';
    if (name.startsWith('metadata.')) return String(customer.metadata[name.slice(9)] ?? '');
    throw new BenefitActionRequired(
      `Unknown placeholder: {${name}}. Allowed: {customer_name}, {customer_email_local}, or {metadata.<key>} for customer metadata.`,
    );
  });
  const suffix = customer.id.replace(/-/g, '').slice(0, 4);
  const base = slugify(rendered)
    .slice(0, SLACK_NAME_MAX - suffix.length - 1)
    .replace(/-+$/, '');
  return base ? `${base}-${suffix}` : suffix;
}

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
