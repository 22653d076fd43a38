import { html } from '../../web-kit/html.js';
import { formatDate } from '../portal/portal-format.js';
import type { DashboardContext, DashboardRoute } from './dashboard-context.js';
import { heading, sendDashboard } from './dashboard-frame.js';

/**
 * `GET …/members`: the organization's members and their roles. The `/v1` API has no list of an
 * organization's members (its members are a customer's), so the page reads them through identity's web
 * contract, as `/settings` reads the access tokens, for any member of the organization. Inviting,
 * removing and changing roles have no API either: the operator adds members with the CLI (docs/cli.md).
 */
async function listMembers(ctx: DashboardContext): Promise<void> {
  const members = await ctx.deps.identity.members(ctx.req.principal, ctx.organization.id);
  sendDashboard(ctx, {
    section: 'members',
    title: 'Members',
    body: html`${heading('Members')}<table><thead><tr><th>E-mail</th><th>Role</th><th>Member since</th></tr></thead><tbody>${members.map(
      m =>
        html`<tr data-member-role="${m.role}"><td>${m.email}</td><td>${m.role}</td><td>${formatDate(m.since)}</td></tr>`,
    )}</tbody></table>
<p class="muted">Members are added by the operator (the CLI's <code>member:add</code>); there is no API to invite or remove them yet.</p>`,
  });
}

export const memberRoutes: DashboardRoute[] = [{ method: 'get', path: '/members', handler: listMembers }];
