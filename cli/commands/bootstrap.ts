import { ALL_SCOPES } from '../../kit/scopes.js';
import { requireString } from '../args.js';
import { defineCommand } from '../command.js';
import { CommandFailure } from '../errors.js';

export const bootstrap = defineCommand({
  name: 'bootstrap',
  summary: 'Create a user, an organization they own, and a PAT and an OAT with every scope',
  usage: '--email E --password P --org-name N --org-slug S [--env production|sandbox] [--json]',
  notes: ['--json prints {"user_id","organization_id","personal_access_token","organization_access_token"}.'],
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'org-name': { type: 'string' },
    'org-slug': { type: 'string' },
  },
  parse: values => ({
    email: requireString(values, 'email'),
    password: requireString(values, 'password'),
    name: requireString(values, 'org-name'),
    slug: requireString(values, 'org-slug'),
  }),
  async run({ admin, identity, environment }, input) {
    // Refuse before creating anything, so a taken slug or e-mail leaves no half-made tenant behind.
    await admin.checkOrganizationAvailable(input.name, input.slug);
    if (await identity.services.users.findByEmail(identity.orm.em.fork(), input.email))
      throw new CommandFailure(`A user with e-mail ${input.email} already exists in ${environment}.`);

    const user = await admin.createUser(input.email, input.password);
    const organization = await admin.createOrganization(user.email, input.name, input.slug);
    const pat = await admin.createPersonalAccessToken(user.id, [...ALL_SCOPES], undefined, 'CLI bootstrap');
    const oat = await admin.createOrganizationAccessToken(organization.id, [...ALL_SCOPES], undefined, 'CLI bootstrap');
    return {
      json: {
        user_id: user.id,
        organization_id: organization.id,
        personal_access_token: pat,
        organization_access_token: oat,
      },
      text: [
        `Bootstrapped ${environment}:`,
        `  user                       ${user.id} <${user.email}>`,
        `  organization               ${organization.id} "${organization.name}" (${organization.slug}), owned by the user`,
        `  personal access token      ${pat}`,
        `  organization access token  ${oat}`,
        'Both tokens carry every scope and are shown only this once.',
      ].join('\n'),
    };
  },
});
