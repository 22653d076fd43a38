import { call } from '../support/stack.js';
import type { WebClient } from './client.js';
import { base, liveTokens, owner, signedIn, useWebPagesStack } from './pages-support.js';

/**
 * The API with the web session cookie instead of a bearer (rest-adapter/guards/same-origin-writes.ts and the
 * JSON-only bodies of rest-adapter/app.ts): a page of another site cannot make a signed-in browser
 * write, whatever content type it picks; this site's pages, and bearer callers from anywhere, can.
 */
useWebPagesStack();

const EVIL = 'https://evil.example';
const tokenBody = () =>
  JSON.stringify({ organization_id: owner.organizationId, comment: 'from a page', scopes: ['organizations:read'] });
const forbidden = {
  error: 'NotPermitted',
  detail:
    'A request signed in with the session cookie must come from this site: same-origin Origin, or the page’s CSRF token.',
};
const json = (text: string) => JSON.parse(text);

async function createToken(client: WebClient, headers: Record<string, string>) {
  return client.request('POST', '/v1/organization-access-tokens/', tokenBody(), headers);
}

describe('cookie-authenticated API writes', () => {
  it('refuses a text/plain token creation posted by another site (the form-post CSRF), and creates nothing', async () => {
    const client = await signedIn(owner.email);
    const before = await liveTokens(owner.organizationId);
    const res = await createToken(client, { 'content-type': 'text/plain', origin: EVIL });
    expect([res.status, json(res.text)]).toEqual([403, forbidden]);
    expect(await liveTokens(owner.organizationId)).toBe(before);
  });

  it('refuses a cookie write without proof of this site: no Origin, a foreign or same-site Origin, a forged token', async () => {
    const client = await signedIn(owner.email);
    const before = await liveTokens(owner.organizationId);
    const otherPort = new URL(base);
    otherPort.port = String(Number(otherPort.port) + 1);
    const refused: Record<string, string>[] = [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', origin: EVIL },
      { 'content-type': 'application/json', origin: 'null' },
      { 'content-type': 'application/json', origin: otherPort.origin, 'sec-fetch-site': 'same-site' },
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      { 'content-type': 'application/json', 'x-csrf-token': 'forged' },
    ];
    for (const headers of refused) {
      const res = await createToken(client, headers);
      expect([headers, res.status, json(res.text)]).toEqual([headers, 403, forbidden]);
    }
    // Revoking and updating are writes too.
    const [victim] = (await call(base, 'GET', '/v1/organization-access-tokens/', { token: owner.pat })).body.items;
    const revoke = await client.request('DELETE', `/v1/organization-access-tokens/${victim.id}`, undefined, {
      origin: EVIL,
    });
    expect([revoke.status, json(revoke.text)]).toEqual([403, forbidden]);
    const update = await client.request(
      'PATCH',
      `/v1/organization-access-tokens/${victim.id}`,
      JSON.stringify({ comment: 'renamed' }),
      { 'content-type': 'application/json', origin: EVIL },
    );
    expect(update.status).toBe(403);
    // /graphql takes the cookie too.
    const graphql = await client.request(
      'POST',
      '/graphql',
      JSON.stringify({
        query:
          'mutation($input: CreateOrganizationAccessTokenInput!) { createOrganizationAccessToken(input: $input) { token } }',
        variables: { input: { organizationId: owner.organizationId, comment: 'gql', scopes: ['organizations:read'] } },
      }),
      { 'content-type': 'application/json', origin: EVIL },
    );
    expect([graphql.status, json(graphql.text)]).toEqual([403, forbidden]);
    expect(await liveTokens(owner.organizationId)).toBe(before);
    const still = await call(base, 'GET', `/v1/organization-access-tokens/?limit=100`, { token: owner.pat });
    expect(still.body.items.find((t: { id: string }) => t.id === victim.id)).toMatchObject({ comment: victim.comment });
  });

  it("accepts this site's own writes: same-origin Origin, Sec-Fetch-Site: same-origin, or the page's CSRF token", async () => {
    const client = await signedIn(owner.email);
    const before = await liveTokens(owner.organizationId);
    const csrf = await client.csrfFrom(`/settings/organizations/${owner.organizationId}`);
    const accepted: Record<string, string>[] = [
      { 'content-type': 'application/json', origin: new URL(base).origin },
      { 'content-type': 'application/json; charset=utf-8', 'sec-fetch-site': 'same-origin' },
      { 'content-type': 'application/json', 'x-csrf-token': csrf },
    ];
    for (const headers of accepted) {
      const res = await createToken(client, headers);
      expect([headers, res.status]).toEqual([headers, 201]);
      expect(json(res.text).token).toMatch(/^polar_oat_/);
    }
    expect(await liveTokens(owner.organizationId)).toBe(before + 3);
    // Reads need no proof (CORS lets no other site read them with the cookie).
    const read = await client.request('GET', '/v1/organization-access-tokens/', undefined, { origin: EVIL });
    expect(read.status).toBe(200);
  });

  it('leaves bearer callers alone: any Origin, or none, still works', async () => {
    for (const origin of [EVIL, undefined]) {
      const res = await call(base, 'POST', '/v1/organization-access-tokens/', {
        token: owner.pat,
        body: { organization_id: owner.organizationId, comment: 'sdk', scopes: ['organizations:read'] },
        headers: origin ? { origin } : {},
      });
      expect([origin, res.status]).toEqual([origin, 201]);
    }
  });
});

describe('JSON bodies only', () => {
  it('answers 422 at `body` for a body that is not JSON, even same-origin, and creates nothing', async () => {
    const client = await signedIn(owner.email);
    const before = await liveTokens(owner.organizationId);
    const origin = new URL(base).origin;
    for (const type of [
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await createToken(client, { 'content-type': type, origin });
      expect([type, res.status, json(res.text)]).toEqual([
        type,
        422,
        {
          error: 'RequestValidationError',
          detail: [
            {
              type: 'model_attributes_type',
              loc: ['body'],
              msg: 'Input should be a valid dictionary or object to extract fields from',
              input: tokenBody(),
            },
          ],
        },
      ]);
    }
    // A bearer caller gets the same answer: the rule is the API's, not the cookie's.
    const bearer = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.pat,
      rawBody: tokenBody(),
      headers: { 'content-type': 'text/plain' },
    });
    expect([bearer.status, bearer.body.detail[0].type]).toEqual([422, 'model_attributes_type']);
    expect(await liveTokens(owner.organizationId)).toBe(before);
    // `application/*+json` is JSON, as FastAPI reads it.
    const vendor = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.pat,
      rawBody: tokenBody(),
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(vendor.status).toBe(201);
  });
});
