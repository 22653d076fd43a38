import { requireString } from '../args.js';
import { defineCommand } from '../command.js';

export const tokenRevoke = defineCommand({
  name: 'token:revoke',
  summary: 'Revoke a personal or organization access token',
  usage: '--token T [--env production|sandbox] [--json]',
  notes: ['--json prints {"revoked": true}.'],
  options: { token: { type: 'string' } },
  parse: values => ({ token: requireString(values, 'token') }),
  async run({ admin, environment }, input) {
    await admin.revokeToken(input.token);
    return { json: { revoked: true }, text: `Revoked the token in ${environment}.` };
  },
});
