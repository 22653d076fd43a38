import pg from 'pg';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { until } from '../support/until.js';
import { WebClient } from './client.js';
import { useDashboardTenant, PASSWORD, signInWithCsrf } from './dashboard-support.js';

/**
 * Inviting members from the dashboard over real HTTP (docs/dashboard.md#members), as Polar's `members/invite`:
 * an e-mail without an account gets the invitation's e-mail (read from the outbox, billing.outgoing_emails), whose
 * link signs them up into the organization with the role; a person with an account is added at once and told by
 * e-mail; a member who is not an owner or admin, a bad e-mail and a post without CSRF change nothing.
 */
let stack: TestStack;
let base: string;
let owner: Tenant;
let memberEmail: string;
let dash: string;

useDashboardTenant(
  {
    ownerName: 'Invite Shop',
    memberPrefix: 'invite-member',
  },
  tenant => {
    ({ stack, base, owner, memberEmail, dash } = tenant);
  },
);

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  const clientUrl = stack.production.environment.identity.orm.config.get('clientUrl') as string;
  const client = new pg.Client({ connectionString: clientUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * The invitation e-mails queued to `to`, once `count` are there or after up to 60 s: the owner-notice relay
 * hands them to the outbox after the commit.
 */
async function invitationEmails(to: string, count = 1): Promise<{ subject: string; text: string }[]> {
  const read = () =>
    query<{ subject: string; text: string }>(
      `select subject, text_body as text from billing.outgoing_emails where to_address = $1 and kind = 'organization_invite'`,
      [to],
    );
  let rows: { subject: string; text: string }[] = [];
  await until(async () => (rows = await read()).length >= count, 60_000);
  return rows;
}

/** The members page's rows: e-mail → role. */
async function roles(client: WebClient): Promise<Record<string, string>> {
  const page = await client.get(`${dash}/members`);
  const rows = [...page.text.matchAll(/<tr data-member-role="(\w+)"><td>([^<]+)<\/td>/g)];
  return Object.fromEntries(rows.map(([, role, email]) => [email, role]));
}

const invitationsOf = (email: string) =>
  query('select role from identity.member_invitations where organization_id = $1 and email = $2', [
    owner.organizationId,
    email,
  ]);

describe('member invitations', () => {
  it('invites an e-mail without an account: the e-mail is queued, its link signs them up as admin, once', async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, `${dash}/members`);
    const before = await roles(client);
    const invitee = `Invitee-${process.pid}-${Date.now()}@Example.com`;
    const address = invitee.toLowerCase();

    const invited = await client.post(`${dash}/members`, { csrf_token: csrf, email: invitee, role: 'admin' });
    expect(invited.status).toBe(303);
    expect(invited.location).toBe(`${dash}/members?notice=member-invited`);
    const page = await client.get(invited.location!);
    expect(page.text).toContain('The invitation was sent by e-mail.');
    expect(page.text).toContain(`<tr data-invitation-role="admin"><td>${address}</td>`);
    expect(await roles(client)).toEqual(before);

    const [email] = await invitationEmails(address);
    expect(email.subject).toBe("You've been invited to Invite Shop");
    expect(email.text).toContain(`${owner.email} has invited you to join Invite Shop as admin.`);
    const link = /(http\S+\/signup\?invitation=[\w-]+)/.exec(email.text)![1];
    const path = new URL(link).pathname + new URL(link).search;

    // The link's page names the organization and the role, with the invited e-mail filled in.
    const newcomer = new WebClient(base);
    const form = await newcomer.get(path);
    expect(form.status).toBe(200);
    expect(form.text).toContain('You are invited to join <strong>Invite Shop</strong> as admin.');
    expect(form.text).toContain(`value="${address}"`);
    const csrfToken = await newcomer.csrfFrom(path);
    const token = new URL(link).searchParams.get('invitation')!;

    // Another e-mail is refused with the invited one named: nobody is made, the link still works.
    const other = `other-${process.pid}-${Date.now()}@example.com`;
    const wrong = await newcomer.post('/signup', {
      csrf_token: csrfToken,
      invitation: token,
      email: other,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(`This invitation is for ${address}`);
    expect(await query('select id from identity.users where email = $1', [other])).toHaveLength(0);

    const joined = await newcomer.post('/signup', {
      csrf_token: csrfToken,
      invitation: token,
      email: invitee,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe('/dashboard');
    expect((await newcomer.get('/dashboard')).location).toBe(dash);
    expect((await newcomer.get(dash)).status).toBe(200);
    expect(await roles(client)).toEqual({ ...before, [address]: 'admin' });
    expect((await client.get(`${dash}/members`)).text).not.toContain('data-invitation-role');
    expect(await invitationsOf(address)).toHaveLength(0);

    // Spent: the link's page says so and joins nobody.
    const again = await new WebClient(base).get(path);
    expect(again.text).toContain('This invitation has expired or was already used.');
    expect(again.text).not.toContain('You are invited to join');
  });

  it('adds a person who has an account at once, with the role, and tells them by e-mail', async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, `${dash}/members`);
    const before = await roles(client);
    const known = `known-${process.pid}-${Date.now()}@example.com`;
    await stack.production.admin.createUser(known, PASSWORD);

    const added = await client.post(`${dash}/members`, { csrf_token: csrf, email: known, role: 'member' });
    expect(added.location).toBe(`${dash}/members?notice=member-added`);
    expect(await roles(client)).toEqual({ ...before, [known]: 'member' });
    expect(await invitationsOf(known)).toHaveLength(0);
    const [email] = await invitationEmails(known);
    expect(email.text).toContain(`${owner.email} has added you to Invite Shop as member.`);
    expect(email.text).toContain(`/dashboard/${owner.organizationId}`);

    // Invited again: already a member, refused, nothing more sent.
    const twice = await client.post(`${dash}/members`, { csrf_token: csrf, email: known, role: 'admin' });
    expect(twice.status).toBe(422);
    expect(twice.text).toContain('This user is already a member of the organization.');
    expect(await roles(client)).toEqual({ ...before, [known]: 'member' });
  });

  it("refuses a member's invitation, a bad e-mail and a post without CSRF, nothing invited nor sent", async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, `${dash}/members`);
    const before = await roles(client);
    const target = `refused-${process.pid}-${Date.now()}@example.com`;

    const { client: member, csrf: memberCsrf } = await signInWithCsrf(base, memberEmail, `${dash}/members`);
    expect((await member.get(`${dash}/members`)).text).not.toContain('Add or invite');
    const byMember = await member.post(`${dash}/members`, { csrf_token: memberCsrf, email: target, role: 'member' });
    expect(byMember.status).toBe(403);
    expect(byMember.text).toContain('You don&#39;t have permission to manage the organization');

    const bad = await client.post(`${dash}/members`, { csrf_token: csrf, email: 'not-an-e-mail', role: 'member' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('Enter a valid e-mail address, such as ann@example.com.');
    expect(bad.text).toContain('value="not-an-e-mail"');

    expect((await client.post(`${dash}/members`, { email: target, role: 'member' })).status).toBe(403);

    expect(await roles(client)).toEqual(before);
    expect(await invitationsOf(target)).toHaveLength(0);
    expect(await invitationsOf('not-an-e-mail')).toHaveLength(0);
    expect(
      await query(`select id from billing.outgoing_emails where to_address in ($1, 'not-an-e-mail')`, [target]),
    ).toHaveLength(0);
    // The organization's API is unchanged for the owner (a sanity read through /v1).
    expect((await call(base, 'GET', `/v1/organizations/${owner.organizationId}`, { token: owner.oat })).status).toBe(
      200,
    );
  });

  it("lists the sandbox's invitation e-mail in the outgoing mail, kept there for an address that is no member yet", async () => {
    const tenant = await createTenant(stack.sandbox, { name: 'Sandbox Invites' });
    const sandboxDash = `/dashboard/${tenant.organizationId}`;
    const { client, csrf } = await signInWithCsrf(stack.sandbox.baseUrl, tenant.email, `${sandboxDash}/members`);
    const invitee = `sandbox-invitee-${process.pid}-${Date.now()}@example.com`;
    const invited = await client.post(`${sandboxDash}/members`, { csrf_token: csrf, email: invitee, role: 'member' });
    expect(invited.location).toBe(`${sandboxDash}/members?notice=member-invited`);
    // The page says where the invitation went: not sent, kept in the sandbox's mail (docs/email.md#sandbox).
    const page = (await client.get(invited.location!)).text;
    expect(page).toContain('The invitation was kept in the sandbox&#39;s outgoing mail, not sent');
    expect(page).not.toContain('The invitation was sent by e-mail');
    expect(page).toContain('In the sandbox, which e-mails only its members, the invitation is kept');
    // The relay keeps it after the commit: up to 60 s.
    let mail = '';
    await until(async () => {
      mail = (await client.get(`/sandbox/emails?organization_id=${tenant.organizationId}`)).text;
      return mail.includes(invitee);
    }, 60_000);
    expect(mail).toContain('You&#39;ve been invited to Sandbox Invites');
    expect(mail).toContain(`To ${invitee}`);
  });
});
