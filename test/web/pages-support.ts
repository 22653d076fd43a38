import pg from 'pg';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { WebClient } from './client.js';
/** The sign-in and organization settings pages over real HTTP (rest-adapter/web). */
export let stack: TestStack;
export let base: string;
export let owner: Tenant;
export let stranger: Tenant;
export const PASSWORD = 'correct horse battery'; // what createTenant gives its users
/** Made per file: the files that use these pages share their worker's stack and its users. */
export let memberEmail: string;

export async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({
    connectionString: stack.production.environment.identity.orm.config.get('clientUrl') as string,
  });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function signedIn(email: string): Promise<WebClient> {
  const client = new WebClient(base);
  const res = await client.logIn(email, PASSWORD);
  expect(res.status).toBe(303);
  return client;
}

export const liveTokens = async (organizationId: string) =>
  Number(
    (
      await query(
        'select count(*) from identity.organization_access_tokens where organization_id = $1 and deleted_at is null',
        [organizationId],
      )
    )[0].count,
  );

/** Registers this suite's set-up (on the worker's shared stack); call it once at the top of each test file. */
export function useWebPagesStack(): void {
  beforeAll(async () => {
    stack = await sharedTestStack();
    base = stack.production.baseUrl;
    owner = await createTenant(stack.production);
    stranger = await createTenant(stack.production);
    memberEmail = `member-${process.pid}-${Date.now()}@example.com`;
    await stack.production.admin.createUser(memberEmail, PASSWORD);
    await stack.production.admin.addMember(owner.organizationId, memberEmail, MemberRole.MEMBER);
  });
}
