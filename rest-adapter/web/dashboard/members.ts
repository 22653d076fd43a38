import type { InvitationRow } from '../../../subgraphs/identity/contract.js';
import { formatDate } from '../portal/portal-format.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  formField,
  type FormState,
  heading,
  html,
  type HtmlValue,
  rawHtml,
  redirectTo,
  sendDashboard,
  whenRefused,
} from './section.js';

const ROLES = ['member', 'admin', 'owner'] as const;
/** The roles that may manage the organization, as `organizations:update` allows (docs/dashboard.md#members). */
const MANAGERS = new Set(['owner', 'admin']);

function roleSelect(id: string, chosen: string, label: string): HtmlValue {
  return html`<select id="${id}" name="role" aria-label="${label}">${ROLES.map(
    r => html`<option value="${r}"${r === chosen ? rawHtml(' selected') : null}>${r}</option>`,
  )}</select>`;
}

/**
 * `GET …/members`: the organization's members and their roles, and the invitations not yet accepted, for any
 * member. The `/v1` API Polar documents has no list of an organization's members (its members are a customer's),
 * so the page reads and changes them through identity's web contract, as `/settings` does the access tokens.
 * Owners and admins see the forms; identity checks the right again on every change.
 */
async function listMembers(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const [members, invitations] = await Promise.all([
    ctx.deps.identity.members(ctx.req.principal, ctx.organization.id),
    ctx.deps.identity.invitations(ctx.req.principal, ctx.organization.id),
  ]);
  const manages = MANAGERS.has(ctx.organization.role);
  const base = `/dashboard/${ctx.organization.id}/members`;
  const actions = (email: string, role: string, i: number) =>
    manages
      ? html`<td><form class="inline" method="post" action="${base}/role">${csrfField(ctx.csrfToken)}<input type="hidden" name="email" value="${email}">${roleSelect(`role-${i}`, role, `Role of ${email}`)} <button type="submit" class="secondary">Change role</button></form>
<form class="inline" method="post" action="${base}/remove">${csrfField(ctx.csrfToken)}<input type="hidden" name="email" value="${email}"><button type="submit" class="danger">Remove</button></form></td>`
      : null;
  const addForm = manages
    ? html`<h2>Add or invite a member</h2><div class="card"><p class="muted">Type an e-mail and a role. A person who already has an account becomes a member at once and is told so by e-mail. Anyone else is e-mailed an invitation: its link works once, for 7 days, and signs them up into the organization with the role.${ctx.deps.environment === 'sandbox' ? ' In the sandbox, which e-mails only its members, the invitation is kept in its outgoing mail (/sandbox/emails) instead.' : ''}</p>
<form class="filters" method="post" action="${base}">${csrfField(ctx.csrfToken)}<div class="field"><label for="member-email">E-mail</label><input id="member-email" type="email" name="email" value="${formField(ctx, 'email')}" required></div><div class="field"><label for="member-role">Role</label>${roleSelect('member-role', formField(ctx, 'role') || 'member', 'Role')}</div><div><button type="submit">Add or invite</button></div></form></div>`
    : html`<p class="muted">Owners and admins add, invite and remove members and change their roles.</p>`;
  sendDashboard(ctx, {
    section: 'members',
    title: 'Members',
    status: form.status,
    body: html`${heading('Members', form.error)}<table><thead><tr><th>E-mail</th><th>Role</th><th>Member since</th>${manages ? html`<th></th>` : null}</tr></thead><tbody>${members.map(
      (m, i) =>
        html`<tr data-member-role="${m.role}"><td>${m.email}</td><td>${m.role}</td><td>${formatDate(m.since)}</td>${actions(m.email, m.role, i)}</tr>`,
    )}</tbody></table>${invitationsTable(invitations)}${addForm}`,
  });
}

/** The invitations sent and not yet accepted (nothing when there are none). */
function invitationsTable(invitations: InvitationRow[]): HtmlValue {
  if (!invitations.length) return null;
  return html`<h2>Invitations</h2><table><thead><tr><th>E-mail</th><th>Role</th><th>Sent</th><th>Link valid until</th></tr></thead><tbody>${invitations.map(
    i =>
      html`<tr data-invitation-role="${i.role}"><td>${i.email}</td><td>${i.role}</td><td>${formatDate(i.createdAt)}</td><td>${formatDate(i.expiresAt)}</td></tr>`,
  )}</tbody></table>`;
}

/** A change of the members through identity's web contract; a refusal is shown on the page with its words. */
const changeMembers =
  (change: (ctx: DashboardContext) => Promise<void>, notice: string) =>
  async (ctx: DashboardContext): Promise<void> =>
    whenRefused(
      async () => {
        await change(ctx);
        redirectTo(ctx, '/members', notice);
      },
      (error, status) => listMembers(ctx, { error, status }),
    );

/**
 * `POST …/members`: invites the e-mail with the role (identity's `inviteMember`, Polar's `members/invite`): a
 * person with an account is a member at once, anyone else gets the invitation's e-mail with its link on this
 * site. A refusal (a bad e-mail, a member already, the caller's right) is shown on the page.
 */
async function inviteMember(ctx: DashboardContext): Promise<void> {
  await whenRefused(
    async () => {
      const { outcome } = await ctx.deps.identity.inviteMember(ctx.req.principal, ctx.organization.id, {
        email: formField(ctx, 'email'),
        role: formField(ctx, 'role'),
        publicUrl: ctx.deps.publicUrl,
      });
      redirectTo(ctx, '/members', outcome === 'added' ? 'member-added' : 'member-invited');
    },
    (error, status) => listMembers(ctx, { error, status }),
  );
}

export const memberRoutes: DashboardRoute[] = [
  { method: 'get', path: '/members', handler: ctx => listMembers(ctx) },
  {
    method: 'post',
    path: '/members',
    handler: inviteMember,
  },
  {
    method: 'post',
    path: '/members/role',
    handler: changeMembers(
      ctx =>
        ctx.deps.identity.changeMemberRole(
          ctx.req.principal,
          ctx.organization.id,
          formField(ctx, 'email'),
          formField(ctx, 'role'),
        ),
      'member-role-changed',
    ),
  },
  {
    method: 'post',
    path: '/members/remove',
    handler: changeMembers(
      ctx => ctx.deps.identity.removeMember(ctx.req.principal, ctx.organization.id, formField(ctx, 'email')),
      'member-removed',
    ),
  },
];
