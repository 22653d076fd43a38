// The organization list reads with SQL compiled once per shape (kit/database/query-shapes.ts). This
// checks it against the plain MikroORM query built from the same readable filter, for every kind of
// principal, filter, order and page, including the pages that need the count query.
import { systemClock } from '../../../kit/clock.js';
import { ALL_SCOPES } from '../../../kit/scopes.js';
import type { Principal } from '../../../kit/principal.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { IdentityAdmin } from '../admin.js';
import { MemberRole } from '../memberships/membership.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import { organizationOrderBy } from '../organizations/organization.sorting.js';
import { type IdentityRuntime, startIdentity } from '../runtime.js';

const SECRET = 'organization-list-test-secret-0123456789abcdef';

let identity: IdentityRuntime;
let drop: () => Promise<void>;
const principals: Record<string, Principal> = {};
const slugs: string[] = [];

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

/** What the list must return: MikroORM's own query over the same readable filter. */
async function reference(
  principal: Principal,
  slug: string | null,
  sorting: string[],
  window: { limit: number; offset: number },
) {
  const em = identity.orm.em.fork();
  const repository = new OrganizationRepository(em);
  const where = { $and: [repository.readableFilter(principal), slug ? { slug } : {}] };
  const items = await em.find(Organization, where as never, {
    orderBy: organizationOrderBy(sorting),
    limit: window.limit,
    offset: window.offset,
  });
  const total = await identity.orm.em.fork().count(Organization, {
    $and: [new OrganizationRepository(identity.orm.em.fork()).readableFilter(principal), slug ? { slug } : {}],
  } as never);
  return { items: items.map(o => ({ ...o })), total };
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
];

describe('OrganizationRepository.list', () => {
  for (const kind of ['user', 'otherUser', 'oauth', 'organization', 'anonymous']) {
    it(`matches MikroORM's query for a ${kind} principal`, async () => {
      for (const [label, slugFilter, sorting, window] of cases) {
        const slug = slugFilter === 'SLUG' ? slugs[3] : slugFilter;
        const [items, total] = await new OrganizationRepository(identity.orm.em.fork()).list(
          principals[kind],
          { slug },
          organizationOrderBy(sorting),
          window,
        );
        const expected = await reference(principals[kind], slug, sorting, window);
        expect({ label, ids: items.map(o => o.id), total }).toEqual({
          label,
          ids: expected.items.map(o => o.id),
          total: expected.total,
        });
        expect(items.map(o => ({ ...o }))).toEqual(expected.items);
      }
    });
  }

  it('reuses one compiled query for principals of the same kind', async () => {
    // Two different users, same shape: each sees only their own organizations.
    const [aliceItems] = await new OrganizationRepository(identity.orm.em.fork()).list(
      principals.user,
      {},
      organizationOrderBy([]),
      { limit: 10, offset: 0 },
    );
    const [bobItems] = await new OrganizationRepository(identity.orm.em.fork()).list(
      principals.otherUser,
      {},
      organizationOrderBy([]),
      { limit: 10, offset: 0 },
    );
    expect(aliceItems).toHaveLength(5);
    expect(bobItems.map(o => o.slug)).toEqual([slugs[4]]);
  });
});
