import { randomUUID } from 'node:crypto';
import { graphql } from 'graphql';
import { systemClock } from '../../../kit/clock.js';
import { ANONYMOUS, type Principal } from '../../../kit/principal.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { IdentityAdmin } from '../admin.js';
import { type IdentityRuntime, startIdentity } from '../runtime.js';

/** The identity subgraph executed in-process: resolvers, services and repository on a real database. */
const SECRET = 'resolver-test-secret-resolver-test-secret-00';
let identity: IdentityRuntime;
let drop: () => Promise<void>;
let orgA: string;
let orgB: string;

const asOrganization = (id: string, scopes = ['organizations:write']): Principal => ({
  subject: 'organization',
  subjectId: id,
  credential: 'organization_access_token',
  scopes,
  organizationIds: [id],
  tokenId: null,
});

const run = (principal: Principal, source: string, variableValues?: Record<string, unknown>) =>
  graphql({ schema: identity.schema, source, variableValues, contextValue: identity.createContext(principal, 'test') });

beforeAll(async () => {
  const database = await createTestDatabase('identity_resolver');
  drop = database.drop;
  identity = await startIdentity({ databaseUrl: database.url, secret: SECRET, clock: systemClock });
  const admin = new IdentityAdmin(identity.orm, identity.services, systemClock, SECRET);
  await admin.createUser('a@example.com', 'password-a');
  await admin.createUser('b@example.com', 'password-b');
  orgA = (await admin.createOrganization('a@example.com', 'Org A', 'org-a')).id;
  orgB = (await admin.createOrganization('b@example.com', 'Org B', 'org-b')).id;
});
afterAll(async () => {
  await identity?.close();
  await drop?.();
});

describe('Query.organization', () => {
  it("returns the caller's organization", async () => {
    const result = await run(asOrganization(orgA), 'query($id: ID!) { organization(id: $id) { id slug } }', {
      id: orgA,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ organization: { id: orgA, slug: 'org-a' } });
  });

  it('raises ResourceNotFound for another tenant with the domain code', async () => {
    const result = await run(asOrganization(orgA), 'query($id: ID!) { organization(id: $id) { id } }', { id: orgB });
    expect(result.errors?.[0].originalError?.constructor.name).toBe('ResourceNotFound');
  });
});

describe('_entities (federation reference resolver)', () => {
  const entities = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id name } } }';

  it("resolves readable organizations in one batch, another tenant's as its public profile only", async () => {
    const result = await run(asOrganization(orgA), entities, {
      r: [
        { __typename: 'Organization', id: orgA },
        { __typename: 'Organization', id: orgB },
        { __typename: 'Organization', id: randomUUID() },
      ],
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities).toEqual([{ id: orgA, name: 'Org A' }, { id: orgB, name: 'Org B' }, null]);
    // Billing hands out another tenant's reference only on capability routes (a checkout by its client
    // secret): what an anonymous caller sees there, and no field more.
    const email = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id email } } }';
    const own = await run(asOrganization(orgA), email, { r: [{ __typename: 'Organization', id: orgA }] });
    expect(own.errors).toBeUndefined();
    const other = await run(asOrganization(orgA), email, { r: [{ __typename: 'Organization', id: orgB }] });
    expect(other.errors?.[0].originalError?.constructor.name).toBe('NotPermitted');
  });

  // A public checkout (billing's client endpoints, anonymous by design) embeds Polar's
  // CheckoutOrganization: the public profile, and nothing else.
  it('gives an anonymous caller the public profile only', async () => {
    const result = await run(ANONYMOUS, entities, { r: [{ __typename: 'Organization', id: orgA }] });
    expect(result.data?._entities).toEqual([{ id: orgA, name: 'Org A' }]);
    const hidden = await run(
      ANONYMOUS,
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id email } } }',
      { r: [{ __typename: 'Organization', id: orgA }] },
    );
    expect(hidden.errors?.[0].originalError?.constructor.name).toBe('NotPermitted');
  });
});

describe('Mutation.createOrganization', () => {
  it('is refused to organization tokens and anonymous callers', async () => {
    for (const principal of [asOrganization(orgA), ANONYMOUS]) {
      const result = await run(
        principal,
        'mutation { createOrganization(input: { name: "X org", slug: "x-org" }) { id } }',
      );
      expect(result.errors?.[0].originalError?.constructor.name).toBe('Unauthorized');
    }
  });
});
