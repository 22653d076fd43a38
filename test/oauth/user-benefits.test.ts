import { ALL_SCOPES } from '../../kit/scopes.js';
import { settleJobs } from '../support/sql-statements.js';
import {
  Browserless,
  bearerGet,
  createPerson,
  registerClient,
  startOAuthStack,
  tokensFor,
  type OAuthStack,
  type Person,
  type RegisteredClient,
} from './support.js';

/**
 * `GET /v1/users/benefit` (docs/interface.md#endpoints) with OAuth tokens: a user token answers the benefits its
 * person holds as a customer of another organization (matched by e-mail); an organization token is
 * refused with 401 (docs/interface.md#authentication rule 3).
 */
let stack: OAuthStack;
let person: Person;
let browser: Browserless;
let client: RegisteredClient;
let perkId: string;

const json = (path: string, token: string, body: unknown) =>
  new Browserless(stack.base).request('POST', path, { json: body, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  stack = await startOAuthStack('user_benefits');
  person = await createPerson(stack);
  client = await registerClient(stack, { scope: 'openid benefits:read' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);

  // Another organization gives `person` (as its customer, by e-mail) a free plan with one benefit.
  const merchant = await createPerson(stack);
  const oat = await stack.admin.createOrganizationAccessToken(merchant.organizationId, [...ALL_SCOPES]);
  const perk = await json('/v1/benefits/', oat, { type: 'custom', description: 'Community access', properties: {} });
  perkId = perk.body.id;
  const plan = await json('/v1/products/', oat, {
    name: 'Community',
    recurring_interval: 'month',
    prices: [{ amount_type: 'free' }],
  });
  await json(`/v1/products/${plan.body.id}/benefits`, oat, { benefits: [perkId] });
  const customer = await json('/v1/customers/', oat, { email: person.email });
  const subscription = await json('/v1/subscriptions/', oat, {
    product_id: plan.body.id,
    customer_id: customer.body.id,
  });
  expect(subscription.status).toBe(201);
  await settleJobs(stack.environment.billing);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

describe('the user benefit endpoint with OAuth tokens', () => {
  it("answers a user token with the person's benefits", async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid' });
    const res = await bearerGet(stack, '/v1/users/benefit', tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body.items.map((b: { id: string }) => b.id)).toEqual([perkId]);
  });

  it('refuses an organization token with 401', async () => {
    const tokens = await tokensFor(
      stack,
      browser,
      client,
      { scope: 'openid', sub_type: 'organization' },
      { organizationId: person.organizationId },
    );
    expect(tokens.access_token.startsWith('polar_at_o_')).toBe(true);
    const res = await bearerGet(stack, '/v1/users/benefit', tokens.access_token);
    expect(res.status).toBe(401);
  });
});
