// The one-hop baseline of the bench: a bare node:http handler that answers GET /v1/organizations/
// for an organization access token with the same JSON as the real service, from ONE PostgreSQL
// query (token lookup, page and total count together), with no framework in between.
// Run as its own process by bench/main.ts; configured by BASELINE_* variables (not the service's config).
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { numbered } from '../kit/database/read/read-model.js';
import { hashToken } from '../kit/tokens.js';
import {
  BillingSubscriptionType,
  billingOrmOptions,
  normaliseFilters,
  OrderType,
  orderRead,
  subscriptionRead,
  subscriptionWireOf,
} from '../subgraphs/billing/runtime.js';
import { orderWire } from '../subgraphs/billing/contract.js';

const databaseUrl = process.env.BASELINE_DATABASE_URL;
const port = Number(process.env.BASELINE_PORT ?? 0);
const secret = process.env.BASELINE_SECRET;
const poolMax = Number(process.env.BASELINE_POOL_MAX ?? 10);
if (!databaseUrl || !secret) {
  process.stderr.write('BASELINE_DATABASE_URL and BASELINE_SECRET are required\n');
  process.exit(2);
}

// Same as the identity subgraph's ORM pool (kit: identityOrmOptions, pool max 10).
const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax, application_name: 'bench-baseline' });

const QUERY = `
  select o.*, count(*) over () as total_count
  from identity.organizations o
  where o.id = (
    select t.organization_id from identity.organization_access_tokens t
    where t.token_hash = $1 and t.deleted_at is null and (t.expires_at is null or t.expires_at > now())
  )
  order by o.created_at asc, o.id asc
  limit $2 offset $3`;

const LIMIT = 10;

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The row in the wire shape of docs/polar/resources.md#organization, field for field what the REST adapter sends. */
function organization(row: any) {
  const f = row.feature_settings;
  const s = row.subscription_settings;
  const e = row.customer_email_settings;
  const p = row.customer_portal_settings;
  const n = row.notification_settings;
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    name: row.name,
    slug: row.slug,
    avatar_url: row.avatar_url,
    proration_behavior: s.proration_behavior,
    allow_customer_updates: s.allow_customer_updates,
    email: row.email,
    website: row.website,
    socials: row.socials.map((x: any) => ({ platform: x.platform, url: x.url })),
    status: row.status,
    details_submitted_at: iso(row.details_submitted_at),
    onboarding_resubmission_requested_at: null,
    sso_enforced: row.sso_enforced,
    default_presentment_currency: row.default_presentment_currency,
    default_tax_behavior: row.default_tax_behavior,
    feature_settings: {
      issue_funding_enabled: f.issue_funding_enabled,
      seat_based_pricing_enabled: f.seat_based_pricing_enabled,
      wallets_enabled: f.wallets_enabled,
      member_model_enabled: f.member_model_enabled,
      checkout_localization_enabled: f.checkout_localization_enabled,
      overview_metrics: f.overview_metrics,
      reset_proration_behavior_enabled: f.reset_proration_behavior_enabled,
      off_session_charges_enabled: f.off_session_charges_enabled,
      meter_cycling_enabled: f.meter_cycling_enabled,
      slack_benefit_enabled: f.slack_benefit_enabled,
      preview_access_enabled: f.preview_access_enabled,
      disputes_enabled: f.disputes_enabled,
      sso_enabled: f.sso_enabled,
      dispute_auto_accept_enabled: f.dispute_auto_accept_enabled,
      compass_enabled: f.compass_enabled,
      merchant_migration_enabled: f.merchant_migration_enabled,
    },
    subscription_settings: {
      allow_multiple_subscriptions: s.allow_multiple_subscriptions,
      proration_behavior: s.proration_behavior,
      proration_behavior_upgrade: s.proration_behavior_upgrade ?? null,
      proration_behavior_downgrade: s.proration_behavior_downgrade ?? null,
      benefit_revocation_grace_period: s.benefit_revocation_grace_period,
      prevent_trial_abuse: s.prevent_trial_abuse,
      allow_customer_updates: s.allow_customer_updates,
    },
    notification_settings: {
      new_order: n.new_order,
      new_subscription: n.new_subscription,
      chargeback_prevention: n.chargeback_prevention,
      subscription_renewal: n.subscription_renewal,
    },
    customer_email_settings: {
      order_confirmation: e.order_confirmation,
      payment_method_expiration_reminder: e.payment_method_expiration_reminder,
      subscription_cancellation: e.subscription_cancellation,
      subscription_confirmation: e.subscription_confirmation,
      subscription_cycled: e.subscription_cycled,
      subscription_cycled_after_trial: e.subscription_cycled_after_trial,
      subscription_past_due: e.subscription_past_due,
      subscription_paused: e.subscription_paused,
      subscription_resumed: e.subscription_resumed,
      subscription_renewal_reminder: e.subscription_renewal_reminder,
      subscription_revoked: e.subscription_revoked,
      subscription_trial_conversion_reminder: e.subscription_trial_conversion_reminder,
      subscription_uncanceled: e.subscription_uncanceled,
      subscription_updated: e.subscription_updated,
    },
    customer_portal_settings: {
      usage: { show: p.usage.show },
      subscription: {
        update_seats: p.subscription.update_seats,
        update_plan: p.subscription.update_plan,
        pause: p.subscription.pause,
        cancel: p.subscription.cancel ?? true,
      },
      customer: { allow_email_change: p.customer.allow_email_change },
    },
    dispute_settings: { auto_accept_below_amount: row.dispute_settings.auto_accept_below_amount },
    embed_hosts: row.embed_hosts,
    embed_hosts_enforced: row.embed_hosts_enforced,
    country: row.country,
    tax_settings: {
      legal_name: row.tax_settings.legal_name,
      legal_address: row.tax_settings.legal_address,
      tax_id: row.tax_settings.tax_id,
      registrations: row.tax_settings.registrations,
      stripe_tax_enabled: row.tax_settings.stripe_tax_enabled,
    },
    account_id: null,
    payout_account_id: null,
    capabilities: {
      checkout_payments: true,
      subscription_renewals: true,
      payouts: true,
      refunds: true,
      api_access: true,
      dashboard_access: true,
    },
    bio: null,
    company: null,
    blog: null,
    location: null,
    twitter_username: null,
    pledge_minimum_amount: 0,
    pledge_badge_show_amount: false,
    default_upfront_split_to_contributors: null,
  };
}

function send(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

// GET /v1/subscriptions/: the statements the service's read path runs (subscription.read.ts, the
// same SQL text, as named prepared statements), shaped by the same functions into the same JSON, with
// nothing in between (no framework, no GraphQL). The ORM is opened for its metadata only.
const orm = await MikroORM.init({ ...billingOrmOptions(databaseUrl, 1), connect: false } as never);
const metadataEm = orm.em.fork();
const organizationOfToken = new Map<string, string | null>();
const TOKEN_ORGANIZATION = numbered(
  'select organization_id from identity.organization_access_tokens where token_hash = ? and deleted_at is null and (expires_at is null or expires_at > now())',
);

async function organizationOf(token: string): Promise<string | null> {
  const hash = hashToken(token, secret!);
  let organizationId = organizationOfToken.get(hash);
  if (organizationId === undefined) {
    const found = await pool.query({ name: 'token_org', text: TOKEN_ORGANIZATION, values: [hash] });
    organizationId = (found.rows[0]?.organization_id as string | undefined) ?? null;
    organizationOfToken.set(hash, organizationId);
  }
  return organizationId;
}

// GET /v1/orders/?limit=10: order.read.ts's statements (default sorting -created_at), shaped by the
// same OrderType.fromRow and orderWire as the service.
async function orders(url: URL, token: string): Promise<unknown> {
  const organizationId = await organizationOf(token);
  if (!organizationId) return { items: [], pagination: { total_count: 0, max_page: 0 } };
  const limit = Number(url.searchParams.get('limit') ?? LIMIT);
  const statements = orderRead.statements(
    metadataEm,
    { organizationIds: [organizationId], customerId: null },
    {},
    [{ key: 'created_at', direction: 'desc' }],
    { limit, offset: 0 },
  );
  // The page and its count on one connection, as the read path runs them (kit/database/read/execute.ts).
  const client = await pool.connect();
  let page: pg.QueryResult;
  let total: number;
  try {
    page = await client.query({
      name: `o${createHash('sha1').update(statements.page[0]).digest('hex').slice(0, 16)}`,
      text: statements.page[0],
      values: statements.page[1],
    });
    total = page.rows.length;
    if (page.rows.length === limit) {
      const count = await client.query({ text: statements.count[0], values: statements.count[1] });
      total = Number(count.rows[0].n);
    }
  } finally {
    client.release();
  }
  return {
    items: page.rows.map(row => orderWire(OrderType.fromRow(row))),
    pagination: { total_count: total, max_page: Math.ceil(total / limit) },
  };
}

async function subscriptions(url: URL, token: string): Promise<unknown> {
  const organizationId = await organizationOf(token);
  if (!organizationId) return { items: [], pagination: { total_count: 0, max_page: 0 } };
  const q = url.searchParams;
  const metadata: Record<string, string[]> = {};
  for (const [key, value] of q) {
    const m = /^metadata\[(.+)\]$/.exec(key);
    if (m) (metadata[m[1]] ??= []).push(value);
  }
  const list = (name: string) => (q.getAll(name).length ? q.getAll(name) : null);
  const flag = (name: string) => (q.has(name) ? q.get(name) === 'true' : null);
  const date = (name: string) => (q.has(name) ? new Date(q.get(name)!) : null);
  const filters = normaliseFilters({
    productId: list('product_id'),
    customerId: list('customer_id'),
    externalCustomerId: list('external_customer_id'),
    discountId: list('discount_id'),
    active: flag('active'),
    status: list('status'),
    cancelAtPeriodEnd: flag('cancel_at_period_end'),
    customerCancellationReason: list('customer_cancellation_reason'),
    canceledAtAfter: date('canceled_at_after'),
    canceledAtBefore: date('canceled_at_before'),
    metadata: Object.keys(metadata).length ? metadata : null,
  });
  const { organizationId: _o, ...readFilters } = filters;
  const window = { limit: LIMIT, offset: 0 };
  const statements = subscriptionRead.statements(
    metadataEm,
    { organizationIds: [organizationId], customerId: null },
    readFilters,
    [{ key: 'started_at', direction: 'desc' }],
    window,
  );
  const client = await pool.connect();
  let page: pg.QueryResult;
  let total: number;
  try {
    page = await client.query({
      name: `p${createHash('sha1').update(statements.page[0]).digest('hex').slice(0, 16)}`,
      text: statements.page[0],
      values: statements.page[1],
    });
    total = page.rows.length;
    if (page.rows.length === LIMIT) {
      const count = await client.query({ text: statements.count[0], values: statements.count[1] });
      total = Number(count.rows[0].n);
    }
  } finally {
    client.release();
  }
  return {
    items: page.rows.map(row => subscriptionWireOf(BillingSubscriptionType.fromRow(row))),
    pagination: { total_count: total, max_page: Math.ceil(total / LIMIT) },
  };
}

const server = createServer((req, res) => {
  const read = req.url?.startsWith('/v1/subscriptions/')
    ? subscriptions
    : req.url?.startsWith('/v1/orders/')
      ? orders
      : null;
  if (req.method === 'GET' && read) {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) {
      send(res, 401, { error: 'Unauthorized', detail: 'Unauthorized' });
      return;
    }
    read(new URL(req.url!, 'http://baseline'), token).then(
      body => send(res, 200, body),
      error => {
        process.stderr.write(`baseline read failed: ${(error as Error).stack}\n`);
        send(res, 500, { error: 'InternalServerError', detail: 'An internal error occurred.' });
      },
    );
    return;
  }
  if (req.method !== 'GET' || !req.url?.startsWith('/v1/organizations/')) {
    send(res, 404, { detail: 'Not Found' });
    return;
  }
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) {
    send(res, 401, { error: 'Unauthorized', detail: 'Unauthorized' });
    return;
  }
  pool.query(QUERY, [hashToken(match[1], secret), LIMIT, 0]).then(
    result => {
      const total = result.rows.length ? Number(result.rows[0].total_count) : 0;
      send(res, 200, {
        items: result.rows.map(organization),
        pagination: { total_count: total, max_page: Math.ceil(total / LIMIT) },
      });
    },
    error => {
      process.stderr.write(`baseline query failed: ${(error as Error).message}\n`);
      send(res, 500, { error: 'InternalServerError', detail: 'An internal error occurred.' });
    },
  );
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`baseline listening on ${typeof address === 'object' && address ? address.port : port}\n`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
