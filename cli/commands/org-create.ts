import { requireString } from '../args.js';
import { defineCommand } from '../command.js';

export const orgCreate = defineCommand({
  name: 'org:create',
  summary: 'Create an organization owned by an existing user',
  usage: '--owner-email E --name N --slug S [--env production|sandbox] [--json]',
  notes: ['--json prints {"organization_id"}.'],
  options: { 'owner-email': { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' } },
  parse: values => ({
    ownerEmail: requireString(values, 'owner-email'),
    name: requireString(values, 'name'),
    slug: requireString(values, 'slug'),
  }),
  async run({ admin, environment }, input) {
    const organization = await admin.createOrganization(input.ownerEmail, input.name, input.slug);
    return {
      json: { organization_id: organization.id },
      text: `Created organization ${organization.id} "${organization.name}" (${organization.slug}) in ${environment}, owned by ${input.ownerEmail}.`,
    };
  },
});
