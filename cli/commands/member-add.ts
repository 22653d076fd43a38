import { MemberRole } from '../../subgraphs/identity/contract.js';
import { oneOf, requireId, requireString } from '../args.js';
import { defineCommand } from '../command.js';
import { CommandFailure } from '../errors.js';

const ROLES = [MemberRole.OWNER, MemberRole.ADMIN, MemberRole.MEMBER] as const;

export const memberAdd = defineCommand({
  name: 'member:add',
  summary: 'Add an existing user to an organization',
  usage: '--organization ID --email E [--role owner|admin|member] [--env production|sandbox] [--json]',
  notes: ['--role defaults to member. --json prints {"organization_id","user_email","role"}.'],
  options: { organization: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
  parse: values => ({
    organizationId: requireId(values, 'organization'),
    email: requireString(values, 'email'),
    role: oneOf(values, 'role', ROLES, MemberRole.MEMBER),
  }),
  async run({ admin, environment }, input) {
    try {
      await admin.addMember(input.organizationId, input.email, input.role);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new CommandFailure(`${input.email} is already a member of organization ${input.organizationId}.`);
      throw error;
    }
    return {
      json: { organization_id: input.organizationId, user_email: input.email, role: input.role },
      text: `Added ${input.email} to organization ${input.organizationId} as ${input.role} in ${environment}.`,
    };
  },
});

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; name?: string };
  return e?.code === '23505' || e?.name === 'UniqueConstraintViolationException';
}
