import { randomUUID } from 'node:crypto';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { OAuth2Client } from '../../../subgraphs/identity/oauth2/oauth2-client.entity.js';
import { OAuth2Token } from '../../../subgraphs/identity/oauth2/oauth2-token.entity.js';
import { call, type RunningEnvironment, TEST_SECRET } from '../../support/stack.js';

/** Credentials of a user stored as the OAuth endpoints store them, with their raw values for a leak report. */
export const REDIRECT_URI = 'https://leaky.example.com/callback';

/** An OAuth client of `ownerUserId`, stored as registration stores it; the raw secrets for the test. */
export async function oauthClient(
  env: RunningEnvironment,
  ownerUserId: string,
): Promise<{ id: string; clientId: string; secret: string; registrationToken: string }> {
  const em = env.environment.identity.orm.em.fork();
  const secret = generateToken(TOKEN_PREFIXES.clientSecret);
  const registrationToken = generateToken(TOKEN_PREFIXES.clientRegistrationToken);
  const client = em.create(OAuth2Client, {
    clientId: generateToken(TOKEN_PREFIXES.clientId),
    registrationTokenHash: hashToken(registrationToken, TEST_SECRET),
    clientSecretHash: hashToken(secret, TEST_SECRET),
    ownerUserId,
    clientName: 'Leaky app',
    redirectUris: [REDIRECT_URI],
    scopes: ['openid', 'organizations:read'],
    createdAt: new Date(),
  } as OAuth2Client);
  await em.flush();
  return { id: client.id, clientId: client.clientId, secret, registrationToken };
}

/** A live OAuth access token of `ownerUserId` (what the token endpoint stores), with its client. */
export async function oauthAccessToken(env: RunningEnvironment, ownerUserId: string): Promise<string> {
  const client = await oauthClient(env, ownerUserId); // the token's foreign key needs the client first
  const em = env.environment.identity.orm.em.fork();
  const now = new Date();
  const raw = generateToken(TOKEN_PREFIXES.oauthUserAccessToken);
  em.create(OAuth2Token, {
    familyId: randomUUID(),
    oauth2ClientId: client.id,
    subType: 'user',
    userId: ownerUserId,
    accessTokenHash: hashToken(raw, TEST_SECRET),
    scopes: ['openid', 'organizations:read'],
    accessTokenExpiresAt: new Date(now.getTime() + 3_600_000),
    authTime: now,
    createdAt: now,
  } as OAuth2Token);
  await em.flush();
  return raw;
}

/** POST a form to an OAuth endpoint with the client's credentials in the body (client_secret_post). */
export function oauthForm(
  env: RunningEnvironment,
  path: string,
  client: { clientId: string; secret: string },
  fields: Record<string, string>,
) {
  return call(env.baseUrl, 'POST', path, {
    rawBody: new URLSearchParams({ client_id: client.clientId, client_secret: client.secret, ...fields }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
