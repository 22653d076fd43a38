import { billingMigrations } from '../../subgraphs/billing/migrations/index.js';
import { identityMigrations } from '../../subgraphs/identity/migrations/index.js';
import { webhooksMigrations } from '../../subgraphs/webhooks/migrations/index.js';
import {
  findLocks,
  type LockFinding,
  type MigrationEntry,
  migrationSql,
  splitStatements,
} from '../support/migration-locks.js';

/**
 * Every migration of the three subgraphs against the lock rules of docs/operations.md#migrations-that-keep-serving:
 * an index on an existing table is built CONCURRENTLY (in a migration that runs outside a transaction),
 * nothing rewrites an existing table or scans it under an exclusive lock, and a foreign key or check
 * on an existing table is added NOT VALID and validated later. Tables created by the same migration
 * are exempt.
 */

const SUBGRAPHS: [schema: string, migrations: MigrationEntry[]][] = [
  ['billing', billingMigrations as MigrationEntry[]],
  ['identity', identityMigrations as MigrationEntry[]],
  ['webhooks', webhooksMigrations as MigrationEntry[]],
];

/**
 * The last migration written before this check existed. Every migration up to it ran only before the
 * first release (package version 0.1.0, no release tag, no installation outside development and the
 * test suite), on tables of a handful of rows, where any lock is over in milliseconds; rewriting them
 * now would change nothing for the databases where they already ran. A later migration cannot be
 * allowed here: it follows the rules.
 */
const LAST_MIGRATION_BEFORE_THE_RULES = 20261129060002;

/** Findings of migrations that ran before the rules, each with why it is tolerated. */
const ALLOWED: Record<string, { why: string; findings: string[] }> = {
  Migration20261121140000_subscription_indexes: {
    why: 'the list indexes, built the day the subscriptions table was created, on an empty table',
    findings: ['index-not-concurrent billing.subscriptions'],
  },
  Migration20261121150000_discount_codes: {
    why: 'discount codes were added the day discounts were; the table was empty',
    findings: ['index-not-concurrent billing.discounts'],
  },
  Migration20261123000000_oauth2_application_type: {
    why: 'the check on a column added in the same statement; OAuth clients were a few test rows',
    findings: ['constraint-validated-at-once identity.oauth2_clients'],
  },
  Migration20261123160000_read_path_indexes: {
    why: 'read-path indexes before any installation; subscriptions held test rows only',
    findings: ['index-not-concurrent billing.subscriptions'],
  },
  Migration20261124100000_refunds_invoices: {
    why: 'checks on refund columns added with refunds, before any installation had orders',
    findings: ['constraint-validated-at-once billing.orders'],
  },
  Migration20261124120000_default_payment_method: {
    why: 'saved cards before any installation; payment_methods held test rows only',
    findings: ['index-not-concurrent billing.payment_methods'],
  },
  Migration20261124120001_checkout_expiry: {
    why: 'checkout expiry before any installation; checkouts held test rows only',
    findings: ['index-not-concurrent billing.checkouts'],
  },
  Migration20261124130000_renewals: {
    why: 'the renewal engine arrived before any installation had a subscription to renew',
    findings: ['index-not-concurrent billing.orders', 'index-not-concurrent billing.subscriptions'],
  },
  Migration20261124140000_plan_changes: {
    why: 'the amounts check was widened before any installation had orders',
    findings: ['constraint-validated-at-once billing.orders'],
  },
  Migration20261125100000_processor_events: {
    why: 'processor-id lookups added before any real processor had written a payment or refund',
    findings: ['index-not-concurrent billing.payments', 'index-not-concurrent billing.refunds'],
  },
  Migration20261125120000_notification_emails: {
    why: 'endpoint-disable notices before any installation; notifications held test rows only',
    findings: ['index-not-concurrent webhooks.notifications'],
  },
  Migration20261126100000_metadata_terms_index: {
    why: 'the metadata index replaced before any installation; subscriptions held test rows only',
    findings: ['index-not-concurrent billing.subscriptions'],
  },
  Migration20261128100000_customer_emails: {
    why: "the e-mail outbox's statuses, before any installation had sent mail",
    findings: ['constraint-validated-at-once billing.outgoing_emails', 'index-not-concurrent billing.outgoing_emails'],
  },
  Migration20261128100000_three_d_secure: {
    why: "the built-in test processor's ledger (sandbox only, tiny) and checkouts, before any installation",
    findings: [
      'constraint-validated-at-once billing.test_processor_charges',
      'constraint-validated-at-once billing.test_processor_payment_methods',
      'index-not-concurrent billing.checkouts',
    ],
  },
  Migration20261128120000_cancel_abandoned_charge: {
    why: "the built-in test processor's ledger (sandbox only), before any installation",
    findings: ['constraint-validated-at-once billing.test_processor_charges'],
  },
  Migration20261129010001_seat_holder_grants: {
    why: 'grant uniqueness rebuilt for seats before any installation had grants',
    findings: ['index-not-concurrent billing.benefit_grants'],
  },
  Migration20261129030000_review_read_indexes: {
    why: 'read indexes from a review, before any installation',
    findings: ['index-not-concurrent billing.discounts', 'index-not-concurrent billing.orders'],
  },
  Migration20261129050001_metric_indexes: {
    why: 'the metrics index on seats, a day after seats arrived, before any installation',
    findings: ['index-not-concurrent billing.customer_seats'],
  },
  Migration20261129060000_metered_prices: {
    why: 'metered prices before any installation had prices',
    findings: ['constraint-validated-at-once billing.product_prices', 'index-not-concurrent billing.product_prices'],
  },
  Migration20261129060001_billing_entries: {
    why: 'billing_entries was created empty an hour earlier and nothing wrote it until this release',
    findings: ['index-not-concurrent billing.billing_entries'],
  },
};

const key = (finding: LockFinding) => `${finding.rule} ${finding.table}`;
const timestampOf = (name: string) => Number(/^Migration(\d{14})_/.exec(name)?.[1]);

async function allFindings(): Promise<LockFinding[]> {
  const findings: LockFinding[] = [];
  for (const [schema, migrations] of SUBGRAPHS)
    for (const entry of migrations) {
      const { statements, transactional } = await migrationSql(entry);
      findings.push(...findLocks(entry.name, statements, transactional, schema));
    }
  return findings;
}

describe('migrations keep tables serving', () => {
  it('break no lock rule, apart from the allowed findings of migrations before the rules', async () => {
    const findings = await allFindings();
    const refused = findings.filter(f => !ALLOWED[f.migration]?.findings.includes(key(f)));
    expect(refused).toEqual([]);
  });

  it('the allow-list holds only migrations before the rules, each with a reason, none of it stale', async () => {
    const findings = await allFindings();
    for (const [migration, { why, findings: allowed }] of Object.entries(ALLOWED)) {
      expect({ migration, before: timestampOf(migration) <= LAST_MIGRATION_BEFORE_THE_RULES }).toEqual({
        migration,
        before: true,
      });
      expect(why.length).toBeGreaterThan(20);
      const found = new Set(findings.filter(f => f.migration === migration).map(key));
      expect({ migration, stale: allowed.filter(entry => !found.has(entry)) }).toEqual({ migration, stale: [] });
    }
  });
});

describe('the check itself', () => {
  const check = (statements: string[], transactional = true) =>
    findLocks('M', statements, transactional, 'billing').map(f => `${f.rule} ${f.table}`);

  it('refuses a plain index on an existing table, and a concurrent one inside a transaction', () => {
    expect(check(['create index "x" on "billing"."orders" ("a")'])).toEqual(['index-not-concurrent billing.orders']);
    expect(check(['create unique index if not exists x on orders (a)'])).toEqual([
      'index-not-concurrent billing.orders',
    ]);
    expect(check(['create index concurrently if not exists "x" on "billing"."orders" ("a")'])).toEqual([
      'concurrent-in-transaction billing.orders',
    ]);
    expect(check(['create index concurrently if not exists "x" on "billing"."orders" ("a")'], false)).toEqual([]);
  });

  it('exempts tables the same migration creates', () => {
    expect(
      check([
        'create table if not exists "billing"."fresh" ("id" uuid primary key, "a" int)',
        'create index "fresh_a" on "billing"."fresh" ("a")',
        'alter table "billing"."fresh" add constraint "fresh_a_check" check ("a" > 0)',
        'alter table "billing"."fresh" add column "b" uuid not null default gen_random_uuid()',
      ]),
    ).toEqual([]);
  });

  it('refuses rewrites: a volatile default, a serial or identity, a stored generated column, a type change', () => {
    for (const clause of [
      'add column "b" uuid not null default gen_random_uuid()',
      'add column "b" timestamptz not null default clock_timestamp()',
      'add column "b" bigserial',
      'add column "b" int generated always as identity',
      'add column "b" int generated always as ("a" * 2) stored',
      'alter column "a" type bigint',
    ])
      expect(check([`alter table "billing"."orders" ${clause}`])).toEqual(['table-rewrite billing.orders']);
    // A constant or a stable default is stored once in the catalogue: no rewrite.
    expect(check(['alter table "billing"."orders" add column "b" text not null default \'x\''])).toEqual([]);
    expect(check(['alter table "billing"."orders" add column "b" timestamptz not null default now()'])).toEqual([]);
    expect(check(['alter table "billing"."orders" alter column "a" set not null'])).toEqual([
      'set-not-null billing.orders',
    ]);
  });

  it('wants NOT VALID on a foreign key or check, and USING INDEX on a unique constraint', () => {
    expect(check(['alter table "billing"."orders" add constraint "c" check ("a" > 0)'])).toEqual([
      'constraint-validated-at-once billing.orders',
    ]);
    expect(
      check([
        'alter table "billing"."orders" add constraint "f" foreign key ("c") references "billing"."customers" ("id")',
      ]),
    ).toEqual(['constraint-validated-at-once billing.orders']);
    expect(
      check(['alter table "billing"."orders" add column "c" uuid null references "billing"."customers" ("id")']),
    ).toEqual(['constraint-validated-at-once billing.orders']);
    expect(
      check([
        'alter table "billing"."orders" add constraint "f" foreign key ("c") references "billing"."customers" ("id") not valid',
        'alter table "billing"."orders" validate constraint "f"',
        'alter table "billing"."orders" add constraint "u" unique using index "orders_u"',
      ]),
    ).toEqual([]);
    expect(check(['alter table "billing"."orders" add constraint "u" unique ("a")'])).toEqual([
      'unique-constraint-builds-index billing.orders',
    ]);
  });

  it('a migration outside a transaction does only concurrent index work', () => {
    expect(
      check(['drop index concurrently if exists "billing"."x"', 'create index concurrently "x" on orders (a)'], false),
    ).toEqual([]);
    expect(check(['update "billing"."orders" set "a" = 1'], false)).toEqual(['non-transactional-mixed ']);
  });

  it('splits statements at top-level semicolons only', () => {
    expect(
      splitStatements(`create function f() returns int language sql as $$ select 1; $$; -- done;
        insert into t values ('a;b'); select ";" from t`),
    ).toEqual([
      'create function f() returns int language sql as $$ select 1; $$',
      "insert into t values ('a;b')",
      'select ";" from t',
    ]);
  });
});
