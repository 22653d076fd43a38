import { ALL_SCOPES } from '../../kit/scopes.js';
import { durationOf, oneOf, optionalString, requireId, scopesOf, UsageError } from '../args.js';
import { defineCommand } from '../command.js';
import { CommandFailure } from '../errors.js';

export const tokenCreate = defineCommand({
  name: 'token:create',
  summary: 'Create a personal (pat) or organization (oat) access token',
  usage:
    '--kind pat|oat [--organization ID] [--user ID | --email E] --scopes "a b" [--expires-in P30D] [--env production|sandbox] [--json]',
  notes: [
    'oat needs --organization; pat needs --user or --email.',
    '--scopes is a space- or comma-separated list of scopes, or "all".',
    '--expires-in is an ISO 8601 duration (P30D, PT12H); without it the token does not expire.',
    '--json prints {"token"}.',
    'Scopes:',
    ...wrap(ALL_SCOPES, 96).map(line => `  ${line}`),
  ],
  options: {
    kind: { type: 'string' },
    organization: { type: 'string' },
    user: { type: 'string' },
    email: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in': { type: 'string' },
  },
  parse(values) {
    if (values.kind === undefined) throw new UsageError('--kind is required (pat or oat)');
    const kind = oneOf(values, 'kind', ['pat', 'oat'] as const, 'pat');
    const scopes = scopesOf(values);
    const expiresIn = durationOf(values, 'expires-in');
    if (kind === 'oat') {
      if (values.user !== undefined || values.email !== undefined)
        throw new UsageError('--user and --email are for --kind pat; an oat belongs to --organization');
      return { kind, organizationId: requireId(values, 'organization'), scopes, expiresIn };
    }
    if (values.organization !== undefined)
      throw new UsageError('--organization is for --kind oat; a pat belongs to --user or --email');
    if ((values.user === undefined) === (values.email === undefined))
      throw new UsageError('--kind pat needs exactly one of --user ID or --email E');
    const user =
      values.user !== undefined ? { userId: requireId(values, 'user') } : { email: optionalString(values, 'email')! };
    return { kind, ...user, scopes, expiresIn };
  },
  async run({ admin, identity, environment }, input) {
    let token: string;
    if (input.kind === 'oat') {
      token = await admin.createOrganizationAccessToken(input.organizationId!, input.scopes, input.expiresIn);
    } else {
      let userId = input.userId;
      if (!userId) {
        const user = await identity.services.users.findByEmail(identity.orm.em.fork(), input.email!);
        if (!user) throw new CommandFailure(`No user with e-mail ${input.email} in ${environment}.`);
        userId = user.id;
      }
      token = await admin.createPersonalAccessToken(userId, input.scopes, input.expiresIn);
    }
    const kind = input.kind === 'oat' ? 'an organization access token' : 'a personal access token';
    const expiry = input.expiresIn ? `, expires in ${input.expiresIn}` : ', does not expire';
    return {
      json: { token },
      text: `Created ${kind} in ${environment} (${input.scopes.length} scopes${expiry}):\n${token}`,
    };
  },
});

function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
