// Identity's lists read through the shared read path (kit/database/read/, organization.read.ts and
// organization-access-token.read.ts). This checks them against the plain MikroORM queries the write
// path's `readableFilter` builds, for every kind of principal, filter, order and page (including the
// pages that need the count statement), and counts the SQL statements a page costs.
import { graphql } from 'graphql';
import { systemClock } from '../../../kit/clock.js';
import { ALL_SCOPES } from '../../../kit/scopes.js';
import type { Principal } from '../../../kit/principal.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { IdentityAdmin } from '../admin.js';
import { MemberRole } from '../memberships/membership.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { organizationCriteria, organizationRead } from '../organizations/organization.read.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import { organizationOrderBy } from '../organizations/organization.sorting.js';
import { OrganizationType } from '../organizations/organization.type.js';
import { OrganizationAccessToken } from '../tokens/organization-access-token.entity.js';
import { OrganizationAccessTokenType } from '../tokens/organization-access-token.type.js';
import { type IdentityRuntime, startIdentity } from '../runtime.js';

const SECRET = 'organization-list-test-secret-0123456789abcdef';

let identity: IdentityRuntime;
let drop: () => Promise<void>;
const principals: Record<string, Principal> = {};
const slugs: string[] = [];
const organizationIds: string[] = [];
const statements: string[] = [];
let recording = false;

beforeAll(async () => {
  const database = await createTestDatabase('organization_list');
  drop = database.drop;
  identity = await startIdentity({ databaseUrl: database.url, secret: SECRET, clock: systemClock });
  const admin = new IdentityAdmin(identity.orm, identity.services, systemClock, SECRET);
  const alice = await admin.createUser('alice@example.com', 'correct horse battery');
  const bob = await admin.createUser('bob@example.com', 'correct horse battery');
  const ids: string[] = [];
  for (const [i, name] of ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo'].entries()) {
    const slug = `list-${name.toLowerCase()}-${i}`;
    slugs.push(slug);
    ids.push((await admin.createOrganization(i < 4 ? 'alice@example.com' : 'bob@example.com', `${name} Org`, slug)).id);
  }
  await admin.addMember(ids[4], 'alice@example.com', MemberRole.MEMBER);
  organizationIds.push(...ids);
  // Tokens of three organizations, one of them revoked (revoked tokens are never listed).
  const tokens = identity.services.organizationAccessTokens;
  for (const [i, organizationId] of [ids[0], ids[0], ids[2], ids[4], ids[0], ids[2]].entries()) {
    const em = identity.orm.em.fork();
    const { token } = await tokens.issue(
      { em, clock: { now: () => new Date(Date.UTC(2026, 0, 1 + (i % 3))) } },
      { organizationId, scopes: ['subscriptions:read'], comment: `token ${i}`, expiresAt: null },
    );
    if (i === 1) await tokens.revoke({ em, clock: systemClock }, token);
  }
  // Count statements at the connection every identity query goes through.
  const connection = identity.orm.em.getConnection() as unknown as {
    executeQuery: (...args: any[]) => Promise<unknown>;
  };
  const original = connection.executeQuery.bind(connection);
  connection.executeQuery = (query: string, ...rest: unknown[]) => {
    if (recording) statements.push(query);
    return original(query, ...rest);
  };
  const base = { scopes: [...ALL_SCOPES], tokenId: '0b7e5bb2-1f43-4d8e-8c4a-3a7d2f9e0c11' };
  principals.user = {
    ...base,
    subject: 'user',
    subjectId: alice.id,
    credential: 'personal_access_token',
    organizationIds: ids,
  };
  principals.otherUser = {
    ...base,
    subject: 'user',
    subjectId: bob.id,
    credential: 'personal_access_token',
    organizationIds: [ids[4]],
  };
  principals.oauth = {
    ...base,
    subject: 'user',
    subjectId: alice.id,
    credential: 'oauth2_token',
    organizationIds: [ids[1], ids[4], ids[3]],
    clientId: 'polar_ci_x',
  };
  principals.organization = {
    ...base,
    subject: 'organization',
    subjectId: ids[2],
    credential: 'organization_access_token',
    organizationIds: [ids[2]],
  };
  principals.anonymous = {
    subject: 'anonymous',
    subjectId: null,
    credential: 'none',
    scopes: [],
    organizationIds: [],
    tokenId: null,
  };
});

afterAll(async () => {
  await identity?.close();
  await drop?.();
});

/** What the organization list must return: MikroORM's own query over the write path's readable filter. */
async function reference(
  principal: Principal,
  slug: string | null,
  sorting: string[],
  window: { limit: number; offset: number },
) {
  const where = () =>
    ({
      $and: [new OrganizationRepository(identity.orm.em.fork()).readableFilter(principal), slug ? { slug } : {}],
    }) as never;
  const items = await identity.orm.em.fork().find(Organization, where(), {
    orderBy: organizationOrderBy(sorting),
    limit: window.limit,
    offset: window.offset,
  });
  const total = await identity.orm.em.fork().count(Organization, where());
  return { items: items.map(OrganizationType.fromEntity), total };
}

const cases: [string, string | null, string[], { limit: number; offset: number }][] = [
  ['first page', null, [], { limit: 10, offset: 0 }],
  ['full page (count needed)', null, ['name'], { limit: 2, offset: 0 }],
  ['middle page', null, ['-name'], { limit: 2, offset: 2 }],
  ['last, partial page', null, ['slug'], { limit: 2, offset: 4 }],
  ['beyond the end (count needed)', null, ['created_at'], { limit: 2, offset: 20 }],
  ['slug filter', 'SLUG', [], { limit: 10, offset: 0 }], // one of the organizations' slugs, set below
  ['unknown slug', 'no-such-slug', [], { limit: 10, offset: 0 }],
  ['several criteria', null, ['-created_at', 'slug'], { limit: 3, offset: 0 }],
  ['a key twice', null, ['-slug', 'slug', 'next_review_threshold'], { limit: 10, offset: 0 }],
];

const KINDS = ['user', 'otherUser', 'oauth', 'organization', 'anonymous'];

describe('the organization list (read path)', () => {
  for (const kind of KINDS) {
    it(`matches MikroORM's query for a ${kind} principal`, async () => {
      for (const [label, slugFilter, sorting, window] of cases) {
        const slug = slugFilter === 'SLUG' ? slugs[3] : slugFilter;
        const { rows, total } = await organizationRead.page(
          identity.orm.em.fork(),
          principals[kind],
          slug ? { slug } : {},
          organizationCriteria(organizationOrderBy(sorting)),
          window,
        );
        const expected = await reference(principals[kind], slug, sorting, window);
        expect({ label, items: rows.map(row => OrganizationType.fromEntity(row.r as never)), total }).toEqual({
          label,
          ...expected,
        });
      }
    });
  }

  it('gets a readable organization and nothing else', async () => {
    const read = (kind: string, id: string) => organizationRead.byId(identity.orm.em.fork(), principals[kind], id);
    expect((await read('organization', organizationIds[2]))?.r).toMatchObject({ slug: slugs[2] });
    expect(await read('organization', organizationIds[0])).toBeNull();
    expect(await read('otherUser', organizationIds[0])).toBeNull();
    expect(await read('oauth', organizationIds[0])).toBeNull();
    expect((await read('oauth', organizationIds[4]))?.r).toMatchObject({ id: organizationIds[4] });
  });
});

/** The token list before the read path: the readable organizations' live tokens, newest first. */
async function referenceTokens(principal: Principal, organizationId: string | null, limit: number, offset: number) {
  const em = identity.orm.em.fork();
  const readable = new OrganizationRepository(em).readableFilter(principal);
  const ids = (await em.find(Organization, readable, { fields: ['id'] })).map(o => o.id);
  const scope = organizationId ? ids.filter(id => id === organizationId) : ids;
  const [items, total] = await em.findAndCount(
    OrganizationAccessToken,
    { organizationId: { $in: scope }, deletedAt: null },
    { orderBy: { createdAt: 'desc', id: 'asc' }, limit, offset },
  );
  return { items: items.map(OrganizationAccessTokenType.fromEntity), total };
}

describe('the organization access token list (read path)', () => {
  for (const kind of KINDS) {
    it(`matches the ORM's query for a ${kind} principal`, async () => {
      for (const organizationId of [null, organizationIds[0], organizationIds[2], organizationIds[4]]) {
        for (const [limit, offset] of [
          [10, 0],
          [2, 0],
          [2, 2],
          [3, 30],
        ]) {
          const ctx = identity.createContext(principals[kind], 'test');
          const { items, pagination } = await identity.services.organizationAccessTokens.list(ctx, {
            organizationId,
            limit,
            page: offset / limit + 1,
          });
          const expected = await referenceTokens(principals[kind], organizationId, limit, offset);
          expect({ organizationId, limit, offset, items, total: pagination.totalCount }).toEqual({
            organizationId,
            limit,
            offset,
            ...expected,
          });
          expect(items.every(t => !('tokenHash' in t))).toBe(true);
        }
      }
    });
  }
});

describe('statements per page', () => {
  async function sqlFor(principal: Principal, source: string): Promise<string[]> {
    statements.length = 0;
    recording = true;
    try {
      const result = await graphql({
        schema: identity.schema,
        source,
        contextValue: identity.createContext(principal, 'test'),
      });
      expect(result.errors).toBeUndefined();
    } finally {
      recording = false;
    }
    return [...statements];
  }

  const ORGANIZATIONS = (limit: number) =>
    `{ organizations(limit: ${limit}, sorting: ["-name"]) { items { id name subscriptionSettings { prorationBehavior } customerPortalSettings { subscription { cancel } } } pagination { totalCount maxPage } } }`;
  const TOKENS = (limit: number) =>
    `{ organizationAccessTokens(limit: ${limit}) { items { id comment scopes createdAt organizationId } pagination { totalCount } } }`;

  it('a page of organizations costs one statement, two when it is full', async () => {
    expect(await sqlFor(principals.user, ORGANIZATIONS(10))).toHaveLength(1);
    expect(await sqlFor(principals.user, ORGANIZATIONS(2))).toHaveLength(2);
    expect(await sqlFor(principals.oauth, ORGANIZATIONS(2))).toHaveLength(2);
    const one = await sqlFor(principals.organization, `{ organization(id: "${organizationIds[2]}") { id slug } }`);
    expect(one).toHaveLength(1);
  });

  it('a page of access tokens costs one statement, two when it is full', async () => {
    expect(await sqlFor(principals.user, TOKENS(10))).toHaveLength(1);
    expect(await sqlFor(principals.user, TOKENS(2))).toHaveLength(2);
    expect(await sqlFor(principals.organization, TOKENS(1))).toHaveLength(2);
  });
});
