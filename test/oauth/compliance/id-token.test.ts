// OpenID Connect Core 1.0 §2 (ID Token claims), §3.1.3.6 (at_hash), §3.1.3.7 (validation), §5.3
// (UserInfo `sub` equals the id_token `sub`), §10.1 (signing; `kid`; keys rotated without breaking
// tokens already issued). Verified with jose against the published JWKS.
import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import {
  bearerGet,
  Browserless,
  createPerson,
  registerClient,
  startOAuthStack,
  tokensFor,
  type OAuthStack,
  type Person,
  type RegisteredClient,
} from '../support.js';

let stack: OAuthStack;
let browser: Browserless;
let person: Person;
let client: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('id_token');
  person = await createPerson(stack);
  client = await registerClient(stack, { scope: 'openid email organizations:read' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const jwks = async () => (await (await fetch(`${stack.base}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
const verify = async (idToken: string) =>
  jwtVerify(idToken, createLocalJWKSet(await jwks()), {
    issuer: stack.base,
    audience: client.client_id,
    algorithms: ['RS256'],
  });

describe('id_token', () => {
  it('is an RS256 JWS with kid, and carries iss, sub, aud, exp, iat, auth_time, nonce, at_hash and email', async () => {
    const before = Math.floor(Date.now() / 1000);
    const nonce = 'n-0S6_WzA2Mj';
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid email', nonce });
    const header = decodeProtectedHeader(tokens.id_token);
    expect(header.alg).toBe('RS256');
    expect(header.typ).toBe('JWT');
    const keys = await jwks();
    expect(keys.keys.map(k => k.kid)).toContain(header.kid);
    expect(keys.keys.every(k => k.kty === 'RSA' && k.use === 'sig' && k.alg === 'RS256' && !('d' in k))).toBe(true);

    const { payload } = await verify(tokens.id_token);
    const discovery = (await (await fetch(`${stack.base}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    expect(payload.iss).toBe(discovery.issuer);
    expect(payload.sub).toBe(person.userId);
    expect(payload.aud).toBe(client.client_id);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.iat!).toBeGreaterThanOrEqual(before - 1);
    expect(typeof payload.auth_time).toBe('number');
    expect(payload.auth_time as number).toBeLessThanOrEqual(payload.iat!);
    expect(payload.nonce).toBe(nonce);
    const digest = createHash('sha256').update(tokens.access_token, 'ascii').digest();
    expect(payload.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));
    expect(payload.email).toBe(person.email);
    expect(payload.email_verified).toBe(false);
  });

  it('does not invent a nonce, and has no email claims without the email scope', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid organizations:read', nonce: undefined });
    const { payload } = await verify(tokens.id_token);
    expect(payload).not.toHaveProperty('nonce');
    expect(payload).not.toHaveProperty('email');
    expect(payload).not.toHaveProperty('email_verified');
  });

  it('is only issued when openid is asked for', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'organizations:read' });
    expect(tokens.id_token).toBeUndefined();
    expect(tokens.access_token).toMatch(/^polar_at_u_/);
  });

  it('names the same subject as UserInfo', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid email' });
    const { payload } = await verify(tokens.id_token);
    const userinfo = await bearerGet(stack, '/v1/oauth2/userinfo', tokens.access_token);
    expect(userinfo.status).toBe(200);
    expect(userinfo.body.sub).toBe(payload.sub);
    const posted = await new Browserless(stack.base).request('POST', '/v1/oauth2/userinfo', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(posted.body).toEqual(userinfo.body);
  });

  it('keeps verifying after a key rotation; new tokens carry the new kid', async () => {
    const old = await tokensFor(stack, browser, client, { scope: 'openid' });
    const oldKid = decodeProtectedHeader(old.id_token).kid;
    const newKid = await stack.rotateSigningKey();
    expect(newKid).not.toBe(oldKid);

    const published = (await jwks()).keys.map(k => k.kid);
    expect(published).toEqual(expect.arrayContaining([oldKid, newKid]));
    await expect(verify(old.id_token)).resolves.toBeDefined();

    const fresh = await tokensFor(stack, browser, client, { scope: 'openid' });
    expect(decodeProtectedHeader(fresh.id_token).kid).toBe(newKid);
    await expect(verify(fresh.id_token)).resolves.toBeDefined();
  });

  it('is refused by a verifier when tampered with', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid' });
    const [header, payload, signature] = tokens.id_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${signature}`;
    await expect(verify(forged)).rejects.toThrow();
  });
});
