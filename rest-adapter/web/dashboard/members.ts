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
 * `GET …/members`: the organization's members and their roles, for any member. The `/v1` API has no list of an
 * organization's members (its members are a customer's), nor a way to add or remove them (Polar has none
 * either), so the page reads and changes them through identity's web contract, as `/settings` does the access
 * tokens. Owners and admins see the forms; identity checks the right again on every change.
 */
async function listMembers(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const members = await ctx.deps.identity.members(ctx.req.principal, ctx.organization.id);
  const manages = MANAGERS.has(ctx.organization.role);
  const base = `/dashboard/${ctx.organization.id}/members`;
  const actions = (email: string, role: string, i: number) =>
    manages
      ? html`<td><form class="inline" method="post" action="${base}/role">${csrfField(ctx.csrfToken)}<input type="hidden" name="email" value="${email}">${roleSelect(`role-${i}`, role, `Role of ${email}`)} <button type="submit" class="secondary">Change role</button></form>
<form class="inline" method="post" action="${base}/remove">${csrfField(ctx.csrfToken)}<input type="hidden" name="email" value="${email}"><button type="submit" class="danger">Remove</button></form></td>`
      : null;
  const addForm = manages
    ? html`<h2>Add a member</h2><div class="card"><p class="muted">Only a person who already has an account can be added: no invitation is sent. Someone new signs up first at <a href="/signup">/signup</a>.</p>
<form class="filters" method="post" action="${base}">${csrfField(ctx.csrfToken)}<div class="field"><label for="member-email">E-mail</label><input id="member-email" type="email" name="email" value="${formField(ctx, 'email')}" required></div><div class="field"><label for="member-role">Role</label>${roleSelect('member-role', formField(ctx, 'role') || 'member', 'Role')}</div><div><button type="submit">Add member</button></div></form></div>`
    : html`<p class="muted">Owners and admins add and remove members and change their roles.</p>`;
  sendDashboard(ctx, {
    section: 'members',
    title: 'Members',
    status: form.status,
    body: html`${heading('Members', form.error)}<table><thead><tr><th>E-mail</th><th>Role</th><th>Member since</th>${manages ? html`<th></th>` : null}</tr></thead><tbody>${members.map(
      (m, i) =>
        html`<tr data-member-role="${m.role}"><td>${m.email}</td><td>${m.role}</td><td>${formatDate(m.since)}</td>${actions(m.email, m.role, i)}</tr>`,
    )}</tbody></table>${addForm}`,
  });
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

export const memberRoutes: DashboardRoute[] = [
  { method: 'get', path: '/members', handler: ctx => listMembers(ctx) },
  {
    method: 'post',
    path: '/members',
    handler: changeMembers(
      ctx =>
        ctx.deps.identity.addMember(
          ctx.req.principal,
          ctx.organization.id,
          formField(ctx, 'email'),
          formField(ctx, 'role'),
        ),
      'member-added',
    ),
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
