import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { type RunningEnvironment, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { csrfTokenOf, WebClient } from './client.js';

/**
 * What every dashboard HTTP test (test/web/dashboard-*.test.ts) starts from: a test stack, an owner's
 * organization in one environment and a member (role member) of it who can sign in.
 */
export const PASSWORD = 'correct horse battery'; // what createTenant gives its users
export const EVIL = '<img src=x onerror=alert(1)>"\'';

export interface DashboardTenant {
  stack: TestStack;
  /** The environment the organization lives in, and its base URL. */
  env: RunningEnvironment;
  base: string;
  owner: Tenant;
  memberEmail: string;
  memberId: string;
  /** `/dashboard/<owner's organization id>`. */
  dash: string;
}

/**
 * Registers the file's set-up: on the worker's shared stack (test/support/shared-stack.ts), makes the owner's
 * organization (named `ownerName` when given) in `environment` with a member signed up as
 * `<memberPrefix>-…@example.com`, and hands them to `ready`.
 */
export function useDashboardTenant(
  options: { environment?: 'production' | 'sandbox'; ownerName?: string; memberPrefix: string },
  ready: (tenant: DashboardTenant) => void | Promise<void>,
): void {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await sharedTestStack();
    const env = stack[options.environment ?? 'production'];
    const owner = await createTenant(env, options.ownerName ? { name: options.ownerName } : {});
    const memberEmail = `${options.memberPrefix}-${process.pid}-${Date.now()}@example.com`;
    const memberId = (await env.admin.createUser(memberEmail, PASSWORD)).id;
    await env.admin.addMember(owner.organizationId, memberEmail, MemberRole.MEMBER);
    const dash = `/dashboard/${owner.organizationId}`;
    await ready({ stack, env, base: env.baseUrl, owner, memberEmail, memberId, dash });
  });
}

/** A browser signed in as `email` at `base` (the sign-in's 303 checked). */
export async function signIn(base: string, email: string): Promise<WebClient> {
  const client = new WebClient(base);
  expect((await client.logIn(email, PASSWORD)).status).toBe(303);
  return client;
}

/** A browser signed in as `email`, and the CSRF token of the page at `path` (its forms post with it). */
export async function signInWithCsrf(
  base: string,
  email: string,
  path: string,
): Promise<{ client: WebClient; csrf: string }> {
  const client = await signIn(base, email);
  return { client, csrf: csrfTokenOf((await client.get(path)).text) };
}
