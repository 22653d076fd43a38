import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { systemClock } from '../../kit/clock.js';
import { sessionCookieName } from '../../rest-adapter/web-kit/cookies.js';
import { InProcessWebIdentity } from '../../subgraphs/identity/web/web.provider.js';
import { call, createTenant, type RunningEnvironment, type Tenant } from '../support/stack.js';
import type { Operation, RequestContext, TokenKind } from './openapi-requests.js';
import { type OpenApiDocument, refResolver } from './openapi-requests.js';

/**
 * The objects a fuzz run needs: two organizations (the caller's, alice, and another tenant, bob), each
 * with products, customers, subscriptions, a discount, a spare access token and open checkouts, created
 * through the public API, and the owner's web session; which ids go into which path; and a fingerprint
 * of each organization's data to prove that a rejected request changed nothing.
 */
export interface TenantWorld {
  tenant: Tenant;
  /** Path prefix (up to the parameter) → ids of this tenant's objects served there. */
  pools: Record<string, string[]>;
  /** Every id and external id of this tenant's objects. */
  allIds: string[];
  /** A customer session token for a customer whose objects are not in `pools`. */
  customerToken: string;
  /** Ids of the other customer (in `pools`): a customer session must never see them. */
  otherCustomerIds: string[];
  /** The `Cookie` header of the owner's web session (the sign-in pages' cookie). */
  sessionCookie: string;
  /**
   * Path prefix → the secrets and slugs of capability routes (a checkout by its client secret, a portal
   * by its slug): whoever holds one reads the object, so only the caller's own go into those paths.
   */
  capabilities: Record<string, string[]>;
}

async function ok(res: { status: number; text: string; body: any }, what: string) {
  if (res.status >= 300) throw new Error(`seeding ${what}: ${res.status} ${res.text}`);
  return res.body;
}

export async function seedTenant(env: RunningEnvironment): Promise<TenantWorld> {
  const tenant = await createTenant(env);
  const base = env.baseUrl;
  const post = (path: string, body: unknown) => call(base, 'POST', path, { token: tenant.oat, body });
  const free = await ok(
    await post('/v1/products/', { name: 'Fuzz free', recurring_interval: 'month', prices: [{ amount_type: 'free' }] }),
    'free product',
  );
  const paid = await ok(
    await post('/v1/products/', {
      name: 'Fuzz paid',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1500 }],
    }),
    'paid product',
  );
  const customer = await ok(
    await post('/v1/customers/', { email: `fuzz-${randomUUID()}@example.com`, external_id: `ext-${randomUUID()}` }),
    'customer',
  );
  const portalCustomer = await ok(
    await post('/v1/customers/', { email: `portal-${randomUUID()}@example.com`, external_id: `ext-${randomUUID()}` }),
    'portal customer',
  );
  const subscription = await ok(
    await post('/v1/subscriptions/', { product_id: free.id, customer_id: customer.id }),
    'subscription',
  );
  const portalSubscription = await ok(
    await post('/v1/subscriptions/', { product_id: free.id, customer_id: portalCustomer.id }),
    'portal subscription',
  );
  const discount = await ok(
    await post('/v1/discounts/', { name: 'Fuzz', type: 'percentage', basis_points: 1000, duration: 'once' }),
    'discount',
  );
  const spare = await ok(
    await post('/v1/organization-access-tokens/', { comment: 'spare', scopes: ['products:read'] }),
    'spare token',
  );
  const session = await ok(await post('/v1/customer-sessions/', { customer_id: portalCustomer.id }), 'session');
  // Several open checkouts: a generated confirm may confirm one, and the others stay open to read and update.
  const checkouts = [];
  for (const products of [[paid.id], [paid.id], [free.id], [paid.id, free.id]])
    checkouts.push(await ok(await post('/v1/checkouts/', { products }), 'checkout'));
  const web = new InProcessWebIdentity(env.environment.identity.orm, env.environment.identity.services, systemClock);
  const signedIn = await web.signIn(tenant.email, 'correct horse battery', null);
  if (!signedIn) throw new Error('seeding the web session: sign-in refused');
  const pools: Record<string, string[]> = {
    '/v1/organizations/': [tenant.organizationId],
    '/v1/products/': [free.id, paid.id],
    '/v1/customers/': [customer.id],
    '/v1/customers/external/': [customer.external_id],
    '/v1/subscriptions/': [subscription.id],
    '/v1/discounts/': [discount.id],
    '/v1/organization-access-tokens/': [spare.organization_access_token.id],
    '/v1/customer-portal/subscriptions/': [portalSubscription.id],
    '/v1/checkouts/': checkouts.map(k => k.id),
  };
  return {
    tenant,
    pools,
    allIds: [
      ...new Set([
        ...Object.values(pools).flat(),
        portalCustomer.id,
        portalCustomer.external_id,
        ...free.prices.map((p: any) => p.id),
        ...paid.prices.map((p: any) => p.id),
      ]),
    ],
    customerToken: session.token,
    otherCustomerIds: [customer.id, customer.external_id, subscription.id],
    sessionCookie: `${sessionCookieName(env.environment.name)}=${signedIn.token}`,
    capabilities: {
      '/v1/checkouts/client/': checkouts.map(k => k.client_secret),
      '/v1/customer-portal/organizations/': [tenant.slug],
    },
  };
}

/** Schema resolution and id choices for requests made by `own` that may name `other`'s objects. */
export function requestContext(doc: OpenApiDocument, own: TenantWorld, other: TenantWorld): RequestContext {
  const resolve = refResolver(doc);
  const prefixOf = (operation: Operation, parameter: string) =>
    operation.path.slice(0, operation.path.indexOf(`{${parameter}}`));
  const poolFor = (world: TenantWorld, operation: Operation, parameter: string) =>
    world.pools[prefixOf(operation, parameter)] ?? world.allIds;
  return {
    resolve,
    ids: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...own.allIds) },
      { weight: 2, arbitrary: fc.constantFrom(...other.allIds) },
    ),
    pathValues: (operation, parameter) => {
      // The caller's own secrets and slugs only: whoever sends one is answered with its object.
      const capabilities = own.capabilities[prefixOf(operation, parameter)];
      if (capabilities)
        return fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...capabilities) },
          { weight: 1, arbitrary: fc.constantFrom(...own.allIds) },
          { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
        );
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...poolFor(own, operation, parameter)) },
        { weight: 3, arbitrary: fc.constantFrom(...poolFor(other, operation, parameter)) },
        { weight: 1, arbitrary: fc.constantFrom(...own.allIds, ...other.allIds) },
        { weight: 2, arbitrary: fc.uuid({ version: 4 }) },
      );
    },
  };
}

/**
 * The credential headers of a token kind: `own`'s tokens, or `other`'s (another organization's token,
 * member, customer session and web session, which capability routes must answer as anonymous callers).
 */
export function credentialFor(own: TenantWorld, other: TenantWorld, kind: TokenKind): Record<string, string> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  switch (kind) {
    case 'organization':
      return bearer(own.tenant.oat);
    case 'user':
      return bearer(own.tenant.pat);
    case 'customer':
      return bearer(own.customerToken);
    case 'invalid':
      return bearer('polar_oat_0000000000000000000000000000000000000000000000');
    case 'foreign-organization':
      return bearer(other.tenant.oat);
    case 'foreign-user':
      return bearer(other.tenant.pat);
    case 'foreign-customer':
      return bearer(other.customerToken);
    case 'foreign-session':
      return { cookie: other.sessionCookie };
    case 'user-own-header':
      return { ...bearer(own.tenant.pat), 'polar-organization': own.tenant.organizationId };
    case 'user-foreign-header':
      return { ...bearer(own.tenant.pat), 'polar-organization': other.tenant.organizationId };
    case 'organization-foreign-header':
      return { ...bearer(own.tenant.oat), 'polar-organization': other.tenant.organizationId };
    case 'broken-session':
      return { cookie: `${other.sessionCookie.split('=')[0]}=%zz%00` };
    default:
      return {};
  }
}

/** Ids a principal of `kind` in `own` must never receive. */
export function foreignIds(own: TenantWorld, other: TenantWorld, kind: TokenKind): string[] {
  const ids = [...other.allIds];
  if (kind === 'customer') ids.push(...own.otherCustomerIds);
  return ids;
}

/**
 * Columns moved by reading or by background work that an earlier accepted request started (the outbox
 * relay stamps `dispatched_at` a moment after the event's commit), and queues that workers drain: the
 * jobs, and the e-mail outbox, whose rows an earlier accepted change queued and the `email.send` job
 * marks sent (or the confirmation job writes with its one-time portal link) while later requests run.
 */
const IGNORED = ['last_used_at', 'dispatched_at'].map(c => `- '${c}'`).join(' ');
const BACKGROUND_TABLES = ['billing.jobs', 'billing.outgoing_emails', 'billing.customer_session_codes'];

/**
 * Every row the service stores (all tables of the `billing` and `identity` schemas), hashed in one
 * statement: a request answered 4xx must leave it unchanged. Columns that reading moves
 * (`last_used_at`) are left out, and tables that change between two idle reads (sessions touched by
 * authentication) are dropped at calibration.
 *
 * Taken around every write request (some 3,400 times a run): each table's row count and the sum of its
 * rows' hashes (no sort), in a named prepared statement, since planning the ~70 subqueries cost five
 * times more than running them on the fuzz's small tables (docs/performance.md#the-sixth-pass-the-two-long-files-and-the-cli-2026-11-30).
 */
export class Fingerprint {
  private tables: string[] = [];

  /** `name` asks for a prepared statement: the same name always comes with the same text. */
  constructor(private readonly execute: (text: string, name?: string) => Promise<any[]>) {}

  async calibrate(touch: () => Promise<unknown>): Promise<void> {
    const rows = await this.execute(
      "select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('billing', 'identity') and table_type = 'BASE TABLE' order by 1",
    );
    this.tables = rows.map(r => r.name).filter(name => !BACKGROUND_TABLES.includes(name));
    const first = await this.perTable();
    await touch();
    const second = await this.perTable();
    this.tables = this.tables.filter(t => first[t] === second[t]);
  }

  get covered(): string[] {
    return [...this.tables];
  }

  async take(): Promise<string> {
    return JSON.stringify(await this.perTable());
  }

  private async perTable(): Promise<Record<string, string>> {
    const columns = this.tables.map(
      t =>
        `(select count(*) || ':' || coalesce(sum(hashtextextended((to_jsonb(r) ${IGNORED})::text, 0)), 0) from ${t} r) as "${t}"`,
    );
    const text = `select ${columns.join(', ')}`;
    // Calibration narrows the table list: a new list is a new statement, under its own name.
    const [row] = await this.execute(
      text,
      `fuzz-fingerprint-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`,
    );
    return row;
  }
}
