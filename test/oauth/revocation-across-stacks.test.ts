import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { TEST_SECRET } from '../support/stack.js';
import { Browserless, createPerson, type OAuthStack, registerClient, startOAuthStack, tokensFor } from './support.js';

// RFC 7009 §2 ("the authorization server invalidates the token") and RFC 7592 §2.3 (deleting a
// client invalidates its tokens), across processes: a second stack with its own principal caches on
// the same database refuses the token on the very next request after the revocation through the
// first, though it had just cached the principal (NOTIFY/LISTEN, kit/database/principal-invalidations.ts).

let stack: OAuthStack;
let other: { environment: Environment; server: Server; base: string };
let browser: Browserless;

beforeAll(async () => {
  stack = await startOAuthStack('revocation_stacks');
  const environment = await startEnvironment({
    name: 'production',
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: stack.base }),
    databaseUrl: stack.databaseUrl,
    secret: TEST_SECRET,
    clock: systemClock,
    logger: createLogger('silent'),
  });
  const server = await new Promise<Server>(resolve => {
    const s = environment.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  other = { environment, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  const person = await createPerson(stack);
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  other?.server.closeAllConnections();
  await new Promise(resolve => other?.server.close(resolve));
  await other?.environment.close();
  await stack?.close();
});

const onOther = (token: string) =>
  new Browserless(other.base).get('/v1/organizations/', { authorization: `Bearer ${token}` });

describe('OAuth revocations reach the other stack at once', () => {
  it('RFC 7009 revoke through one stack: the access token is invalid_token on the other', async () => {
    const client = await registerClient(stack, { scope: 'openid organizations:read' });
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid organizations:read' });
    expect((await onOther(tokens.access_token)).status).toBe(200);

    const response = await new Browserless(stack.base).request('POST', '/v1/oauth2/revoke', {
      form: { token: tokens.access_token, client_id: client.client_id, client_secret: client.client_secret! },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);

    const after = await onOther(tokens.access_token);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.text).error).toBe('invalid_token');
  });

  it("RFC 7592 client deletion through one stack: the client's tokens are invalid_token on the other", async () => {
    const client = await registerClient(stack, { scope: 'openid organizations:read' });
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid organizations:read' });
    expect((await onOther(tokens.access_token)).status).toBe(200);

    const deleted = await fetch(client.registration_client_uri, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${client.registration_access_token}` },
    });
    expect(deleted.status).toBe(204);

    expect((await onOther(tokens.access_token)).status).toBe(401);
  });
});
