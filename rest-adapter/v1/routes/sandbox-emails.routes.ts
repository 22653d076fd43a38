import { z } from 'zod';
import { SANDBOX_EMAILS_READ } from '../../../subgraphs/billing/contract.js';
import { toWire } from './common.js';
import type { Route } from './route.js';

const sandboxEmail = z.object({
  id: z.uuid(),
  kind: z.string(),
  to: z.string(),
  from_name: z.string().nullable(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  status: z.enum(['pending', 'sent', 'failed', 'not_delivered']),
  reason: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  sent_at: z.iso.datetime({ offset: true }).nullable(),
});

/**
 * Beyond Polar: the sandbox's outgoing mail, delivered or not (docs/email.md#sandbox). The sandbox
 * delivers e-mail only to members of the organization; this list is how a merchant reads the rest. The
 * page `/sandbox/emails` shows the same list to a signed-in member.
 */
export const sandboxEmailsRoutes: Route[] = [
  {
    operationId: 'sandbox:emails_list',
    method: 'get',
    path: '/v1/sandbox/emails/',
    summary: "List an organization's recent outgoing e-mails (sandbox)",
    description:
      'The organization’s most recent e-mails, newest first: customer e-mails, sign-in codes and notices, ' +
      'each with its status (`sent`; `not_delivered` when the sandbox kept it because the recipient is not a ' +
      'member of the organization, with the reason; `pending`; `failed`). A user’s token names the ' +
      'organization with `organization_id`. Sandbox only (404 in production).',
    tag: 'sandbox',
    sandboxOnly: true,
    access: SANDBOX_EMAILS_READ,
    query: z.object({
      organization_id: z.uuid().optional(),
      limit: z.coerce.number().int().min(1).max(100).optional(),
    }),
    operation: 'SandboxEmailsList',
    variables: ({ query }) => ({ organizationId: query.organization_id ?? null, limit: query.limit ?? null }),
    result: data => ({ items: toWire(data.sandboxEmails) }),
    status: 200,
    response: z.object({ items: z.array(sandboxEmail) }),
    errors: [404],
  },
];
