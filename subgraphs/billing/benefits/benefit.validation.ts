import { isUuid } from '../../../kit/uuid.js';
import type { ValidationIssue } from '../../../kit/errors.js';
import { BENEFIT_TYPES, type BenefitKind } from './benefit-types.js';

export const BENEFIT_DESCRIPTION_MIN = 3;
export const BENEFIT_DESCRIPTION_MAX = 42;
const TIMEFRAMES = ['year', 'month', 'day'];
const PERMISSIONS = ['pull', 'triage', 'push', 'maintain', 'admin'];

type Props = Record<string, unknown>;
const issue = (loc: (string | number)[], msg: string, input: unknown, type = 'value_error'): ValidationIssue => ({
  type,
  loc: ['body', ...loc],
  msg,
  input,
});

/**
 * The benefit's fields as Polar's create and update models check them (the REST edge checks the same
 * with zod first; GraphQL clients reach these). Answers the properties as stored (defaults filled in).
 */
export function benefitIssues(
  type: string,
  description: string | undefined,
  properties: Props | undefined,
): { issues: ValidationIssue[]; properties: Props } {
  const issues: ValidationIssue[] = [];
  if (!(BENEFIT_TYPES as readonly string[]).includes(type))
    issues.push(
      issue(
        ['type'],
        `Input tag '${type}' found using 'type' does not match any of the expected tags`,
        type,
        'union_tag_invalid',
      ),
    );
  if (description !== undefined) {
    const length = description.trim().length;
    if (length < BENEFIT_DESCRIPTION_MIN)
      issues.push(
        issue(
          ['description'],
          `String should have at least ${BENEFIT_DESCRIPTION_MIN} characters`,
          description,
          'string_too_short',
        ),
      );
    if (length > BENEFIT_DESCRIPTION_MAX)
      issues.push(
        issue(
          ['description'],
          `String should have at most ${BENEFIT_DESCRIPTION_MAX} characters`,
          description,
          'string_too_long',
        ),
      );
  }
  if (properties === undefined || issues.length) return { issues, properties: properties ?? {} };
  const checked = checkProperties(type as BenefitKind, properties, issues);
  return { issues, properties: checked };
}

function checkProperties(type: BenefitKind, p: Props, issues: ValidationIssue[]): Props {
  const at = (key: string) => ['properties', key];
  const str = (key: string, required: boolean) => {
    const v = p[key];
    if (v === undefined || v === null) {
      if (required) issues.push(issue(at(key), 'Field required', p, 'missing'));
      return null;
    }
    if (typeof v !== 'string') issues.push(issue(at(key), 'Input should be a valid string', v, 'string_type'));
    return v as string;
  };
  switch (type) {
    case 'custom':
      return { note: str('note', false) ?? null };
    case 'feature_flag':
      return {};
    case 'discord':
      // Polar reads the guild from the token through Discord; without the integration it is unknown
      // (an empty string: the response model requires a string).
      return {
        guild_id: typeof p.guild_id === 'string' ? p.guild_id : '',
        role_id: str('role_id', true),
        kick_member: p.kick_member === true,
        guild_token: str('guild_token', true),
      };
    case 'github_repository': {
      const permission = str('permission', true);
      if (permission && !PERMISSIONS.includes(permission))
        issues.push(
          issue(at('permission'), `Input should be ${PERMISSIONS.map(x => `'${x}'`).join(', ')}`, permission, 'enum'),
        );
      return {
        repository_owner: str('repository_owner', true),
        repository_name: str('repository_name', true),
        permission,
      };
    }
    case 'downloadables': {
      const files = p.files;
      if (!Array.isArray(files) || files.length < 1 || files.some(f => typeof f !== 'string' || !isUuid(f)))
        issues.push(
          issue(
            at('files'),
            'List should have at least 1 item after validation, and every item a UUID',
            files,
            'too_short',
          ),
        );
      return { archived: (p.archived as Record<string, boolean>) ?? {}, files: files ?? [] };
    }
    case 'license_keys':
      return licenseKeyProperties(p, issues);
    case 'meter_credit': {
      const units = p.units;
      if (typeof units !== 'number' || !Number.isInteger(units) || units <= 0 || units > 2_147_483_647)
        issues.push(issue(at('units'), 'Input should be greater than 0', units, 'greater_than'));
      const meterId = str('meter_id', true);
      if (meterId && !isUuid(meterId))
        issues.push(issue(at('meter_id'), 'Input should be a valid UUID', meterId, 'uuid_parsing'));
      return { units, rollover: p.rollover === true, meter_id: meterId };
    }
    case 'slack_shared_channel': {
      const template = str('channel_name_template', true);
      if (template !== null && (template.length < 1 || template.length > 80))
        issues.push(
          issue(
            at('channel_name_template'),
            'String should have between 1 and 80 characters',
            template,
            'string_too_long',
          ),
        );
      return {
        slack_integration_id: str('slack_integration_id', true),
        channel_name_template: template,
        private: p.private !== false,
        welcome_message: str('welcome_message', false),
        archive_on_revoke: p.archive_on_revoke !== false,
        team_invitees: Array.isArray(p.team_invitees) ? p.team_invitees : [],
      };
    }
  }
}

function licenseKeyProperties(p: Props, issues: ValidationIssue[]): Props {
  const out: Props = { prefix: p.prefix ?? null, expires: null, activations: null, limit_usage: null };
  if (p.prefix != null && typeof p.prefix !== 'string')
    issues.push(issue(['properties', 'prefix'], 'Input should be a valid string', p.prefix, 'string_type'));
  const expires = p.expires as Props | null | undefined;
  if (expires != null) {
    const ttl = expires.ttl;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0)
      issues.push(issue(['properties', 'expires', 'ttl'], 'Input should be greater than 0', ttl, 'greater_than'));
    if (!TIMEFRAMES.includes(expires.timeframe as string))
      issues.push(
        issue(
          ['properties', 'expires', 'timeframe'],
          "Input should be 'year', 'month' or 'day'",
          expires.timeframe,
          'enum',
        ),
      );
    out.expires = { ttl, timeframe: expires.timeframe };
  }
  const activations = p.activations as Props | null | undefined;
  if (activations != null) {
    const limit = activations.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0 || limit > 50)
      issues.push(
        issue(['properties', 'activations', 'limit'], 'Input should be between 1 and 50', limit, 'less_than_equal'),
      );
    out.activations = { limit, enable_customer_admin: activations.enable_customer_admin === true };
  }
  if (p.limit_usage != null) {
    const usage = p.limit_usage;
    if (typeof usage !== 'number' || !Number.isInteger(usage) || usage <= 0)
      issues.push(issue(['properties', 'limit_usage'], 'Input should be greater than 0', usage, 'greater_than'));
    out.limit_usage = usage;
  }
  return out;
}
