import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../kit/tokens.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { OAuth2Client } from '../../subgraphs/identity/oauth2/oauth2-client.entity.js';
import { OAuth2Token } from '../../subgraphs/identity/oauth2/oauth2-token.entity.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import {
  call,
  createTenant,
  type RunningEnvironment,
  startTestStack,
  TEST_SECRET,
  type Tenant,
  type TestStack,
} from '../support/stack.js';

/**
 * Secret scanning tells each revoked token's owner by e-mail, through billing's outbox (read here as an
 * inbox): the user for a personal access token, an OAuth user token or a client of theirs; the
 * organization's owners and admins for an organization access token, an OAuth token granted to the
 * organization and a customer session token (the seller minted it). Each e-mail names the token (its
 * name and prefix, never the secret), where GitHub found it, and that it was revoked; a token reported
 * again is not e-mailed twice. Revocation itself is proven in secret-scanning.test.ts.
 */
const PATH = '/v1/integrations/github/secret-scanning';
const KEY_ID = 'emails-key';
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const GITHUB_KEYS = JSON.stringify({
  public_keys: [{ key_identifier: KEY_ID, key: publicKey.export({ type: 'spki', format: 'pem' }), is_current: true }],
});
const LEAK_URL = 'https://github.com/octo/leaky/blob/main/.env';

let stack: TestStack;
let env: RunningEnvironment;
let owner: Tenant;
let admin: string;
let member: string;

beforeAll(async () => {
  stack = await startTestStack('secret_scanning_emails', undefined, { GITHUB_SECRET_SCANNING_KEYS: GITHUB_KEYS });
  env = stack.production;
  owner = await createTenant(env);
  admin = `admin-${randomUUID()}@example.com`;
  member = `member-${randomUUID()}@example.com`;
  for (const [email, role] of [
    [admin, MemberRole.ADMIN],
    [member, MemberRole.MEMBER],
  ] as const) {
    await env.admin.createUser(email, 'correct horse battery');
    await env.admin.addMember(owner.organizationId, email, role);
  }
}, 120_000);
afterAll(() => stack?.close(), 60_000);

function report(matches: { token: string; type: string }[]) {
  const body = JSON.stringify(matches.map(m => ({ ...m, url: LEAK_URL, source: 'commit' })));
  return call(env.baseUrl, 'POST', PATH, {
    rawBody: body,
    headers: {
      'content-type': 'application/json',
      'github-public-key-identifier': KEY_ID,
      'github-public-key-signature': createSign('SHA256').update(body).sign(privateKey).toString('base64'),
    },
  });
}

/** An OAuth client; with `ownerUserId` null it was registered anonymously (nobody to tell). */
async function oauthClient(ownerUserId: string | null, name: string) {
  const em = env.environment.identity.orm.em.fork();
  const secret = generateToken(TOKEN_PREFIXES.clientSecret);
  const client = em.create(OAuth2Client, {
    clientId: generateToken(TOKEN_PREFIXES.clientId),
    registrationTokenHash: hashToken(generateToken(TOKEN_PREFIXES.clientRegistrationToken), TEST_SECRET),
    clientSecretHash: hashToken(secret, TEST_SECRET),
    ownerUserId,
    clientName: name,
    redirectUris: ['https://leaky.example.com/callback'],
    scopes: ['openid'],
    createdAt: new Date(),
  } as OAuth2Client);
  await em.flush();
  return { id: client.id, secret };
}

/** A live OAuth access token issued by `clientId` to the owner, for the user or the organization. */
async function oauthToken(clientId: string, subject: 'user' | 'organization'): Promise<string> {
  const em = env.environment.identity.orm.em.fork();
  const now = new Date();
  const prefix = subject === 'user' ? TOKEN_PREFIXES.oauthUserAccessToken : TOKEN_PREFIXES.oauthOrganizationAccessToken;
  const raw = generateToken(prefix);
  em.create(OAuth2Token, {
    familyId: randomUUID(),
    oauth2ClientId: clientId,
    subType: subject,
    userId: owner.userId,
    organizationId: subject === 'organization' ? owner.organizationId : null,
    accessTokenHash: hashToken(raw, TEST_SECRET),
    scopes: ['openid'],
    accessTokenExpiresAt: new Date(now.getTime() + 3_600_000),
    authTime: now,
    createdAt: now,
  } as OAuth2Token);
  await em.flush();
  return raw;
}

interface Email {
  to_address: string;
  subject: string;
  text_body: string;
  organization_id: string | null;
}

const inbox = () =>
  env.environment.billing.orm.em.fork().execute<Email[]>(
    `select to_address, subject, text_body, organization_id from billing.outgoing_emails
        where kind = 'leaked_token_revoked' order by subject, to_address`,
  );

it('e-mails the owner of each revoked token: which token, where GitHub found it, that it was revoked', async () => {
  const oat = await env.admin.createOrganizationAccessToken(
    owner.organizationId,
    ['organizations:read'],
    undefined,
    'CI deploy',
  );
  const pat = await env.admin.createPersonalAccessToken(owner.userId, ['organizations:read'], undefined, 'laptop');
  const app = await oauthClient(owner.userId, 'Leaky app');
  const userOAuth = await oauthToken(app.id, 'user');
  const orgApp = await oauthClient(owner.userId, 'Org dashboard');
  const organizationOAuth = await oauthToken(orgApp.id, 'organization');
  const anonymous = await oauthClient(null, 'Anonymous app');
  const customer = await new BillingFixtures(env).customer(owner.organizationId);
  const session = await call(env.baseUrl, 'POST', '/v1/customer-sessions/', {
    token: owner.oat,
    body: { customer_id: customer.id },
  });
  expect(session.status).toBe(201);
  const cst: string = session.body.token;
  const tokens = [
    { token: oat, type: 'polar_organization_access_token' },
    { token: pat, type: 'polar_personal_access_token' },
    { token: userOAuth, type: 'polar_access_token' },
    { token: organizationOAuth, type: 'polar_access_token' },
    { token: app.secret, type: 'polar_client_secret' },
    { token: anonymous.secret, type: 'polar_client_secret' },
    { token: cst, type: 'polar_customer_session_token' },
  ];

  const answer = await report(tokens);

  expect(answer.status).toBe(200);
  expect(answer.body.map((r: { label: string }) => r.label)).toEqual(Array(tokens.length).fill('true_positive'));
  const managers = [admin, owner.email].sort();
  const emails = await inbox();
  const to = (subject: string) => emails.filter(e => e.subject === subject).map(e => e.to_address);
  expect(to('Your organization access token "CI deploy" was found in public and has been revoked')).toEqual(managers);
  expect(to('Your personal access token "laptop" was found in public and has been revoked')).toEqual([owner.email]);
  expect(to('Your OAuth access token "Leaky app" was found in public and has been revoked')).toEqual([owner.email]);
  expect(to('Your OAuth access token "Org dashboard" was found in public and has been revoked')).toEqual(managers);
  expect(to('Your OAuth client secret "Leaky app" was found in public and has been revoked')).toEqual([owner.email]);
  expect(to('Your customer session token was found in public and has been revoked')).toEqual(managers);
  // The anonymous client has nobody to tell; the plain member is never told.
  expect(emails).toHaveLength(9);
  expect(emails.map(e => e.to_address)).not.toContain(member);

  const byPrefix: [string, string][] = [
    ['"CI deploy"', 'polar_oat_'],
    ['"laptop"', 'polar_pat_'],
    ['"Leaky app"', 'polar_at_u_'],
    ['"Org dashboard"', 'polar_at_o_'],
    ['client secret', 'polar_cs_'],
    ['customer session', 'polar_cst_'],
  ];
  for (const [subject, prefix] of byPrefix) {
    const email = emails.find(e => e.subject.includes(subject) && e.text_body.includes(prefix));
    expect(email?.text_body).toContain(`Where GitHub found it: ${LEAK_URL} (commit).`);
    expect(email?.text_body).toContain('we revoked it: it no longer works');
  }
  for (const email of emails) for (const { token } of tokens) expect(email.text_body).not.toContain(token);
  expect(emails.find(e => e.subject.includes('"laptop"'))?.organization_id).toBeNull();
  expect(emails.find(e => e.subject.includes('customer session'))?.organization_id).toBe(owner.organizationId);

  // Reported again (GitHub retries): nothing is revoked, nothing more is e-mailed.
  const again = await report(tokens.slice(0, 2));
  expect(again.body.map((r: { label: string }) => r.label)).toEqual(['false_positive', 'false_positive']);
  expect(await inbox()).toHaveLength(9);
});
