import { requireString } from '../args.js';
import { defineCommand } from '../command.js';

export const userCreate = defineCommand({
  name: 'user:create',
  summary: 'Create a user who can sign in with e-mail and password',
  usage: '--email E --password P [--env production|sandbox] [--json]',
  notes: ['--json prints {"user_id"}.'],
  options: { email: { type: 'string' }, password: { type: 'string' } },
  parse: values => ({ email: requireString(values, 'email'), password: requireString(values, 'password') }),
  async run({ admin, environment }, input) {
    const user = await admin.createUser(input.email, input.password);
    return { json: { user_id: user.id }, text: `Created user ${user.id} <${user.email}> in ${environment}.` };
  },
});
