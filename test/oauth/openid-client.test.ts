import { launchChromium } from '../support/browser.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createPerson, PASSWORD, type Person, startOAuthStack, type OAuthStack } from './support.js';

/**
 * End to end with a certified relying-party library: openid-client v6 (on oauth4webapi) with its
 * default checks — discovery, dynamic registration, the authorization code flow with PKCE (S256),
 * state and nonce through the real pages in headless Chromium (JavaScript off), id_token validation
 * against the JWKS, UserInfo, refresh with rotation, introspection, revocation, a public client, and
 * the organization flow. The only relaxation is `allowInsecureRequests` (the issuer is http on loopback).
 */
jest.setTimeout(120_000);

const insecure = { execute: [oidc.allowInsecureRequests] };
let stack: OAuthStack;
let issuer: URL;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let person: Person;
let secondOrganization: { id: string; name: string; slug: string };
let callbackServer: Server;
let redirectUri: string;

beforeAll(async () => {
  stack = await startOAuthStack('openid_client');
  issuer = new URL(stack.base);
  person = await createPerson(stack, 'First Org');
  const second = await stack.admin.createOrganization(person.email, 'Second Org', `second-${Date.now()}`);
  secondOrganization = { id: second.id, name: second.name, slug: second.slug };
  // The client's redirect URI: a loopback page that just says the browser got back.
  callbackServer = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('back at the client'),
  );
  await new Promise<void>(resolve => callbackServer.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  browser = await launchChromium();
  context = await browser.newContext({ javaScriptEnabled: false });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  if (callbackServer) await new Promise(resolve => callbackServer.close(resolve));
  await stack?.close();
});

/** Opens the authorization URL; signs in when the login page shows; presses Allow; returns the callback URL. */
async function authorizeInBrowser(url: URL, choose?: (page: Page) => Promise<void>): Promise<URL> {
  await page.goto(url.href);
  if (new URL(page.url()).pathname === '/login') {
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
  }
  await page.getByRole('button', { name: 'Allow' }).waitFor();
  if (choose) await choose(page);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(u => u.href.startsWith(redirectUri));
  return new URL(page.url());
}

describe('openid-client against the provider', () => {
  let confidential: oidc.Configuration;

  it('discovers the provider; the issuer is the public URL', async () => {
    const config = await oidc.discovery(issuer, 'unused-client-id', undefined, undefined, insecure);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(stack.base);
    expect(metadata.authorization_endpoint).toBe(`${stack.base}/oauth2/authorize`);
    expect(metadata.code_challenge_methods_supported).toContain('S256');
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256']);
  });

  it('registers a confidential client (client_secret_basic) and runs the code flow with PKCE, state and nonce', async () => {
    confidential = await oidc.dynamicClientRegistration(
      issuer,
      {
        client_name: 'Example App',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'openid email organizations:read',
      },
      oidc.ClientSecretBasic(),
      insecure,
    );
    expect(confidential.clientMetadata().client_id).toMatch(/^polar_ci_/);
    expect(confidential.clientMetadata().client_secret).toMatch(/^polar_cs_/);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(confidential, {
      redirect_uri: redirectUri,
      scope: 'openid email organizations:read',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });

    await page.goto(url.href);
    await page.waitForURL(u => u.pathname === '/login');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    // The consent page names the client and says what it asks for, in words.
    await page.getByRole('heading', { name: 'Authorize Example App' }).waitFor();
    await page.getByText('Read your e-mail address').waitFor();
    await page.getByText('Read organizations').waitFor();
    await page.getByRole('button', { name: 'Deny' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(u => u.href.startsWith(redirectUri));
    const callback = new URL(page.url());
    expect(callback.searchParams.get('iss')).toBe(stack.base);

    const tokens = await oidc.authorizationCodeGrant(confidential, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.access_token).toMatch(/^polar_at_u_/);
    expect(tokens.refresh_token).toMatch(/^polar_rt_u_/);
    expect(tokens.expires_in).toBe(864000);
    expect(tokens.scope).toBe('openid email organizations:read');
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: stack.base,
      sub: person.userId,
      aud: confidential.clientMetadata().client_id,
      nonce,
      email: person.email,
      email_verified: false,
    });
    expect(typeof claims.auth_time).toBe('number');

    const userinfo = await oidc.fetchUserInfo(confidential, tokens.access_token, claims.sub);
    expect(userinfo).toEqual({ sub: person.userId, email: person.email, email_verified: false });

    // The token works on the API, with its scopes.
    const organizations = await oidc.fetchProtectedResource(
      confidential,
      tokens.access_token,
      new URL(`${stack.base}/v1/organizations/`),
      'GET',
    );
    expect(organizations.status).toBe(200);
    const listed = (await organizations.json()) as { items: { id: string }[] };
    expect(listed.items.map(o => o.id).sort()).toEqual([person.organizationId, secondOrganization.id].sort());
    // Beyond its scopes: 403 insufficient_scope, which openid-client reports as a Bearer challenge.
    await expect(
      oidc.fetchProtectedResource(
        confidential,
        tokens.access_token,
        new URL(`${stack.base}/v1/organizations/${person.organizationId}`),
        'PATCH',
        JSON.stringify({ name: 'x' }),
        new Headers({ 'content-type': 'application/json' }),
      ),
    ).rejects.toMatchObject({
      status: 403,
      cause: [
        expect.objectContaining({
          scheme: 'bearer',
          parameters: expect.objectContaining({ error: 'insufficient_scope' }),
        }),
      ],
    });

    // Refresh rotates the refresh token; introspection sees the new one live and the old one dead.
    const refreshed = await oidc.refreshTokenGrant(confidential, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toMatch(/^polar_rt_u_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.expires_in).toBe(3600);
    const live = await oidc.tokenIntrospection(confidential, refreshed.access_token);
    expect(live).toMatchObject({
      active: true,
      client_id: confidential.clientMetadata().client_id,
      token_type: 'access_token',
      sub_type: 'user',
      sub: person.userId,
      iss: stack.base,
      scope: 'openid email organizations:read',
    });
    expect((await oidc.tokenIntrospection(confidential, tokens.refresh_token!)).active).toBe(false);

    // Revocation ends the token.
    await oidc.tokenRevocation(confidential, refreshed.access_token);
    expect((await oidc.tokenIntrospection(confidential, refreshed.access_token)).active).toBe(false);
    const after = await fetch(`${stack.base}/v1/organizations/`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(after.status).toBe(401);
  });

  it('skips the consent page for scopes already granted and still checks state and nonce', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(confidential, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    await page.goto(url.href);
    await page.waitForURL(u => u.href.startsWith(redirectUri));
    const tokens = await oidc.authorizationCodeGrant(confidential, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()!.sub).toBe(person.userId);
    // A reused (rotated) refresh token is refused, and it ends that grant.
    const first = await oidc.refreshTokenGrant(confidential, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(confidential, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.refreshTokenGrant(confidential, first.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('runs the flow for a public client (token_endpoint_auth_method none, PKCE)', async () => {
    const publicClient = await oidc.dynamicClientRegistration(
      issuer,
      {
        client_name: 'Native App',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        scope: 'openid organizations:read',
      },
      oidc.None(),
      insecure,
    );
    expect(publicClient.clientMetadata().client_secret).toBeUndefined();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(publicClient, {
      redirect_uri: redirectUri,
      scope: 'openid organizations:read',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await authorizeInBrowser(url);
    const tokens = await oidc.authorizationCodeGrant(publicClient, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: person.userId, iss: stack.base });
    expect(tokens.claims()!.nonce).toBeUndefined();
    expect(tokens.claims()!.email).toBeUndefined();
    const refreshed = await oidc.refreshTokenGrant(publicClient, tokens.refresh_token!);
    expect(refreshed.access_token).toMatch(/^polar_at_u_/);
    await oidc.tokenRevocation(publicClient, refreshed.refresh_token!);
    await expect(oidc.refreshTokenGrant(publicClient, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('runs the organization flow: the person picks one organization and the token acts for it only', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(confidential, {
      redirect_uri: redirectUri,
      scope: 'openid organizations:read',
      state,
      nonce,
      sub_type: 'organization',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await authorizeInBrowser(url, async p => {
      await p.getByRole('radio', { name: 'First Org' }).waitFor();
      await p.getByLabel('Second Org').check();
    });
    const tokens = await oidc.authorizationCodeGrant(confidential, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.access_token).toMatch(/^polar_at_o_/);
    expect(tokens.refresh_token).toMatch(/^polar_rt_o_/);
    expect(tokens.claims()!.sub).toBe(secondOrganization.id);
    expect(await oidc.fetchUserInfo(confidential, tokens.access_token, secondOrganization.id)).toEqual({
      sub: secondOrganization.id,
      name: secondOrganization.slug,
    });

    const listed = await fetch(`${stack.base}/v1/organizations/`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(((await listed.json()) as { items: { id: string }[] }).items.map(o => o.id)).toEqual([
      secondOrganization.id,
    ]);
    // A user-only endpoint refuses an organization token.
    const create = await fetch(`${stack.base}/v1/organizations/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nope', slug: `nope-${Date.now()}` }),
    });
    expect(create.status).toBe(401);
    const introspected = await oidc.tokenIntrospection(confidential, tokens.access_token);
    expect(introspected).toMatchObject({
      active: true,
      sub_type: 'organization',
      sub: secondOrganization.id,
      organizations: [secondOrganization.id],
    });

    const refreshed = await oidc.refreshTokenGrant(confidential, tokens.refresh_token!);
    expect(refreshed.access_token).toMatch(/^polar_at_o_/);
  });
});
