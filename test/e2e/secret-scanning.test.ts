import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../kit/tokens.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { OAuth2AuthorizationCode } from '../../subgraphs/identity/oauth2/oauth2-authorization-code.entity.js';
import { InProcessWebIdentity } from '../../subgraphs/identity/runtime.js';
import { OAuth2Token } from '../../subgraphs/identity/oauth2/oauth2-token.entity.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { GITHUB_KEYS, match, otherKeys, report, SECRET_SCANNING_PATH, sign } from './support/github-reports.js';
import { oauthAccessToken, oauthClient, oauthForm, REDIRECT_URI } from './support/leaked-credentials.js';
import { call, createTenant, type RunningEnvironment, TEST_SECRET, type Tenant } from '../support/stack.js';

/**
 * GitHub's secret-scanning partner endpoint, over real HTTP, on two stacks sharing one database (two
 * replicas): GitHub signs the raw body with ECDSA P-256 / SHA-256 (here, a key pair made by the test
 * and configured as GitHub's `/meta/public_keys/secret_scanning` document); each live token reported
 * is revoked everywhere at once and labelled `true_positive`.
 */

let database: { url: string; drop: () => Promise<void> };
const stacks: { environment: Environment; server: Server }[] = [];
let a: RunningEnvironment;
let b: RunningEnvironment;
let unconfigured: RunningEnvironment;
let owner: Tenant;
/** Every log line stack A wrote (warn and above). */
const logLines: string[] = [];

async function startStack(keys: string | undefined, capture = false): Promise<RunningEnvironment> {
  const logger = capture
    ? pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) })
    : createLogger('silent');
  const environment = await startEnvironment({
    name: 'production',
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', GITHUB_SECRET_SCANNING_KEYS: keys }),
    databaseUrl: database.url,
    secret: TEST_SECRET,
    clock: systemClock,
    logger,
  });
  const server = await new Promise<Server>(resolve => {
    const s = environment.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  stacks.push({ environment, server });
  const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET);
  return { environment, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, admin };
}

beforeAll(async () => {
  database = await createMigratedTestDatabase('secret_scanning');
  a = await startStack(GITHUB_KEYS, true);
  b = await startStack(GITHUB_KEYS);
  unconfigured = await startStack(undefined);
  owner = await createTenant(a);
}, 120_000);

afterAll(async () => {
  for (const { environment, server } of stacks) {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
    await environment.close();
  }
  await database?.drop();
});

async function customerSessionToken(): Promise<string> {
  const customer = await new BillingFixtures(a).customer(owner.organizationId);
  const session = await call(a.baseUrl, 'POST', '/v1/customer-sessions/', {
    token: owner.oat,
    body: { customer_id: customer.id },
  });
  expect(session.status).toBe(201);
  return session.body.token;
}

const organizations = (baseUrl: string, token: string) => call(baseUrl, 'GET', '/v1/organizations/', { token });
const portal = (baseUrl: string, token: string) => call(baseUrl, 'GET', '/v1/customer-portal/customers/me', { token });

describe('POST /v1/integrations/github/secret-scanning', () => {
  it('revokes live tokens of every family on every stack at once and labels them true_positive', async () => {
    const oat = await a.admin.createOrganizationAccessToken(owner.organizationId, ['organizations:read']);
    const pat = await a.admin.createPersonalAccessToken(owner.userId, ['organizations:read']);
    const oauth = await oauthAccessToken(a, owner.userId);
    const cst = await customerSessionToken();
    // Both stacks have each principal cached.
    for (const stack of [a, b]) {
      for (const token of [oat, pat, oauth]) expect((await organizations(stack.baseUrl, token)).status).toBe(200);
      expect((await portal(stack.baseUrl, cst)).status).toBe(200);
    }
    const unknown = generateToken(TOKEN_PREFIXES.organizationAccessToken);
    const body = JSON.stringify([
      match(oat, 'polar_organization_access_token'),
      match(pat, 'POLAR_PERSONAL_ACCESS_TOKEN'),
      match(oauth, 'polar_access_token'),
      match(unknown, 'polar_organization_access_token'),
      match(cst, 'polar_customer_session_token'),
    ]);

    const answer = await report(a.baseUrl, body);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { token_raw: oat, token_type: 'polar_organization_access_token', label: 'true_positive' },
      { token_raw: pat, token_type: 'polar_personal_access_token', label: 'true_positive' },
      { token_raw: oauth, token_type: 'polar_access_token', label: 'true_positive' },
      { token_raw: unknown, token_type: 'polar_organization_access_token', label: 'false_positive' },
      { token_raw: cst, token_type: 'polar_customer_session_token', label: 'true_positive' },
    ]);
    // The very next request with each token is refused, on this stack and on the other replica.
    for (const stack of [a, b]) {
      for (const token of [oat, pat, oauth]) {
        const refused = await organizations(stack.baseUrl, token);
        expect(refused.status).toBe(401);
        expect(refused.body.error).toBe('invalid_token');
      }
      expect((await portal(stack.baseUrl, cst)).status).toBe(401);
    }
    // Owners are notified (a warning per revoked token: owner and kind, never the token).
    const notices = logLines.map(line => JSON.parse(line)).filter(l => /leaked token revoked/.test(l.msg));
    expect(notices.map(n => [n.tokenKind, n.ownerType])).toEqual([
      ['organization_access_token', 'organization'],
      ['personal_access_token', 'user'],
      ['oauth2_access_token', 'user'],
      ['customer_session', 'customer'],
    ]);
    expect(notices[0].ownerId).toBe(owner.organizationId);
    expect(notices[1].ownerId).toBe(owner.userId);
    for (const token of [oat, pat, oauth, cst]) expect(logLines.join('\n')).not.toContain(token);

    // Reported again: already revoked, so nothing was revoked this time.
    const again = await report(b.baseUrl, JSON.stringify([match(oat, 'polar_organization_access_token')]));
    expect(again.status).toBe(200);
    expect(again.body).toEqual([
      { token_raw: oat, token_type: 'polar_organization_access_token', label: 'false_positive' },
    ]);
  });

  it('revokes refresh tokens, client secrets, registration tokens, authorization codes and web sessions', async () => {
    const app = await oauthClient(a, owner.userId);
    const leakyApp = await oauthClient(a, owner.userId);
    const em = a.environment.identity.orm.em.fork();
    const now = new Date();
    const refresh = generateToken(TOKEN_PREFIXES.oauthUserRefreshToken);
    em.create(OAuth2Token, {
      familyId: randomUUID(),
      oauth2ClientId: app.id,
      subType: 'user',
      userId: owner.userId,
      accessTokenHash: hashToken(generateToken(TOKEN_PREFIXES.oauthUserAccessToken), TEST_SECRET),
      refreshTokenHash: hashToken(refresh, TEST_SECRET),
      scopes: ['openid'],
      accessTokenExpiresAt: new Date(now.getTime() + 3_600_000),
      refreshTokenExpiresAt: new Date(now.getTime() + 86_400_000),
      authTime: now,
      createdAt: now,
    } as OAuth2Token);
    const code = generateToken(TOKEN_PREFIXES.authorizationCode);
    em.create(OAuth2AuthorizationCode, {
      codeHash: hashToken(code, TEST_SECRET),
      oauth2ClientId: app.id,
      userId: owner.userId,
      subType: 'user',
      sub: owner.userId,
      scopes: ['openid'],
      redirectUri: REDIRECT_URI,
      authTime: now,
      expiresAt: new Date(now.getTime() + 300_000),
      createdAt: now,
    } as OAuth2AuthorizationCode);
    await em.flush();
    const web = new InProcessWebIdentity(a.environment.identity.orm, a.environment.identity.services, systemClock);
    const session = await web.signIn(owner.email, 'correct horse battery', null);
    const cookie = { cookie: `polar_session=${session!.token}` };
    const introspect = (client: typeof app, token: string) => oauthForm(a, '/v1/oauth2/introspect', client, { token });
    const readClient = () =>
      call(a.baseUrl, 'GET', `/v1/oauth2/register/${leakyApp.clientId}`, { token: leakyApp.registrationToken });
    // Controls: each credential works before the report.
    expect((await introspect(app, refresh)).body.active).toBe(true);
    expect((await introspect(leakyApp, refresh)).status).toBe(200);
    expect((await readClient()).status).toBe(200);
    expect((await call(a.baseUrl, 'GET', '/v1/organizations/', { headers: cookie })).status).toBe(200);

    const answer = await report(
      a.baseUrl,
      JSON.stringify([
        match(refresh, 'polar_refresh_token'),
        match(leakyApp.secret, 'polar_client_secret'),
        match(leakyApp.registrationToken, 'polar_client_registration_token'),
        match(code, 'polar_authorization_code'),
        match(session!.token, 'polar_user_session_token'),
      ]),
    );

    expect(answer.status).toBe(200);
    expect(answer.body.map((r: { label: string }) => r.label)).toEqual(Array(5).fill('true_positive'));
    expect((await introspect(app, refresh)).body).toEqual({ active: false });
    expect((await introspect(leakyApp, refresh)).status).toBe(401);
    expect((await readClient()).status).toBe(401);
    const exchange = await oauthForm(a, '/v1/oauth2/token', app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
    });
    expect(exchange.status).toBe(400);
    expect(exchange.body.error).toBe('invalid_grant');
    expect((await call(b.baseUrl, 'GET', '/v1/organizations/', { headers: cookie })).status).toBe(401);
  });

  it('two concurrent reports of one token (GitHub retries, two replicas): exactly one true_positive', async () => {
    const oat = await a.admin.createOrganizationAccessToken(owner.organizationId, ['organizations:read']);
    const pat = await a.admin.createPersonalAccessToken(owner.userId, ['organizations:read']);
    const oauth = await oauthAccessToken(a, owner.userId);
    const body = JSON.stringify([
      match(oat, 'polar_organization_access_token'),
      match(pat, 'polar_personal_access_token'),
      match(oauth, 'polar_access_token'),
    ]);
    const answers = await Promise.all([report(a.baseUrl, body), report(b.baseUrl, body)]);
    for (const index of [0, 1, 2]) {
      const labels = answers.map(answer => answer.body[index].label).sort();
      expect(labels).toEqual(['false_positive', 'true_positive']);
    }
  });

  it('a bad signature is 403 and revokes nothing', async () => {
    const oat = await a.admin.createOrganizationAccessToken(owner.organizationId, ['organizations:read']);
    const body = JSON.stringify([match(oat, 'polar_organization_access_token')]);
    for (const signature of [sign(body, otherKeys.privateKey), sign(`${body} `), 'not base64 at all!']) {
      const answer = await report(a.baseUrl, body, { 'github-public-key-signature': signature });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'InvalidSignature', detail: 'Invalid signature.' });
    }
    expect((await organizations(a.baseUrl, oat)).status).toBe(200);
  });

  it('an unknown key identifier is 400', async () => {
    const body = JSON.stringify([match(owner.oat, 'polar_organization_access_token')]);
    const answer = await report(a.baseUrl, body, { 'github-public-key-identifier': 'rotated-away' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'PublicKeyNotFound',
      detail: 'Public key with key_identifier rotated-away not found.',
    });
    expect((await organizations(a.baseUrl, owner.oat)).status).toBe(200);
  });

  it('missing signature headers are 422 at the header', async () => {
    const answer = await call(a.baseUrl, 'POST', SECRET_SCANNING_PATH, { body: [] });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('RequestValidationError');
    expect(answer.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['header', 'github-public-key-identifier'],
      ['header', 'github-public-key-signature'],
    ]);
  });

  it('a signed body that is not a report is 422 in Polar shape', async () => {
    const notJson = await report(a.baseUrl, '[{"token": ');
    expect(notJson.status).toBe(422);
    expect(notJson.body).toEqual({
      error: 'RequestValidationError',
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 0],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting value' },
        },
      ],
    });

    const badType = await report(a.baseUrl, JSON.stringify([{ token: owner.oat, type: 'aws_key', source: 'content' }]));
    expect(badType.status).toBe(422);
    expect(badType.body.error).toBe('RequestValidationError');
    expect(badType.body.detail[0].loc).toEqual(['body', 0, 'type']);

    const notArray = await report(a.baseUrl, JSON.stringify({ token: owner.oat }));
    expect(notArray.status).toBe(422);
    expect(notArray.body.detail[0].loc).toEqual(['body']);
    expect((await organizations(a.baseUrl, owner.oat)).status).toBe(200);
  });

  it('without configured keys it is 503 and says what to set', async () => {
    const body = JSON.stringify([match(owner.oat, 'polar_organization_access_token')]);
    const answer = await report(unconfigured.baseUrl, body);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('SecretScanningNotConfigured');
    expect(answer.body.detail).toMatch(/GITHUB_SECRET_SCANNING_KEYS/);
    expect((await organizations(a.baseUrl, owner.oat)).status).toBe(200);
  });

  it('without configured keys an unsigned request is still 422 at the missing headers', async () => {
    const body = [match(owner.oat, 'polar_organization_access_token')];
    const unsigned = await call(unconfigured.baseUrl, 'POST', SECRET_SCANNING_PATH, { body });
    expect(unsigned.status).toBe(422);
    expect(unsigned.body).toEqual({
      error: 'RequestValidationError',
      detail: [
        { type: 'missing', loc: ['header', 'github-public-key-identifier'], msg: 'Field required', input: null },
        { type: 'missing', loc: ['header', 'github-public-key-signature'], msg: 'Field required', input: null },
      ],
    });
    const halfSigned = await call(unconfigured.baseUrl, 'POST', SECRET_SCANNING_PATH, {
      body,
      headers: { 'github-public-key-signature': 'MEUCIQ==' },
    });
    expect(halfSigned.status).toBe(422);
    expect(halfSigned.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['header', 'github-public-key-identifier'],
    ]);
    expect((await organizations(a.baseUrl, owner.oat)).status).toBe(200);
  });

  it('is in /openapi.json without security, with both headers', async () => {
    const document = (await call(a.baseUrl, 'GET', '/openapi.json')).body;
    const operation = document.paths[SECRET_SCANNING_PATH].post;
    expect(operation.security).toEqual([]);
    expect(operation.parameters.map((p: { name?: string }) => p.name)).toEqual(
      expect.arrayContaining(['Github-Public-Key-Identifier', 'Github-Public-Key-Signature']),
    );
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '422', '503']));
  });
});
