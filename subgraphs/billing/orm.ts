import { CustomerMeter } from './customer-meters/customer-meter.entity.js';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { DEFAULT_DATABASE_WAITS, type DatabaseWaits } from '../../kit/config.js';
import { migrateSchema } from '../../kit/database/migrate.js';
import { forgetEndedSessions } from '../../kit/database/ended-sessions.js';
import { pooledConnectionSettings } from '../../kit/database/waits.js';
import { readReplicaOptions } from '../../kit/database/read-replicas.js';
import { CustomerSession } from './customer-sessions/customer-session.entity.js';
import { Customer } from './customers/customer.entity.js';
import { Discount } from './discounts/discount.entity.js';
import { DomainEvent } from './events/domain-event.entity.js';
import { billingMigrations } from './migrations/index.js';
import { ProductPrice } from './products/product-price.entity.js';
import { Product } from './products/product.entity.js';
import { Subscription } from './subscriptions/subscription.entity.js';
import { Checkout } from './checkouts/checkout.entity.js';
import { CheckoutLink } from './checkout-links/checkout-link.entity.js';
import { CustomerSeat } from './customer-seats/customer-seat.entity.js';
import { Member } from './members/member.entity.js';
import { Benefit, ProductBenefit } from './benefits/benefit.entity.js';
import { BenefitGrant } from './benefits/benefit-grant.entity.js';
import { OrderItem } from './orders/order-item.entity.js';
import { Order } from './orders/order.entity.js';
import { Payment } from './payments/payment.entity.js';
import { Refund } from './refunds/refund.entity.js';
import { Dispute } from './disputes/dispute.entity.js';
import { Meter } from './meters/meter.entity.js';
import { EventType } from './usage-events/event-type.entity.js';
import { UsageEvent } from './usage-events/usage-event.entity.js';
import { CustomField } from './custom-fields/custom-field.entity.js';
import { MetricDashboard } from './metrics/metric-dashboard.entity.js';
import { OrderInvoice } from './invoices/invoice.entity.js';
import { SavedPaymentMethod } from './payments/saved-payment-method.entity.js';
import { LicenseKey, LicenseKeyActivation } from './license-keys/license-key.entity.js';
import { FileChunk, FilePart, StoredFile } from './files/file.entity.js';
import { CustomerBalanceEntry } from './balances/customer-balance-entry.entity.js';
import { ProrationItem } from './subscriptions/proration-item.entity.js';
import { testProcessorEntities } from './payments/test-processor/test-processor.entities.js';

/** The billing subgraph owns the `billing` Postgres schema; nothing else reads these tables. */
export const BILLING_SCHEMA = 'billing';
const MIGRATION_LOCK_KEY = 7_301_002;

export const billingEntities = [
  Product,
  ProductPrice,
  Discount,
  Customer,
  CustomerSession,
  Subscription,
  DomainEvent,
  Checkout,
  CheckoutLink,
  CustomerSeat,
  Member,
  Order,
  OrderItem,
  Payment,
  SavedPaymentMethod,
  Refund,
  Dispute,
  UsageEvent,
  EventType,
  Meter,
  CustomerMeter,
  CustomField,
  MetricDashboard,
  OrderInvoice,
  ProrationItem,
  CustomerBalanceEntry,
  Benefit,
  ProductBenefit,
  BenefitGrant,
  ...testProcessorEntities,
  LicenseKey,
  LicenseKeyActivation,
  StoredFile,
  FileChunk,
  FilePart,
];

export function billingOrmOptions(
  clientUrl: string,
  poolMax = 10,
  waits: DatabaseWaits = DEFAULT_DATABASE_WAITS,
): Options {
  return {
    clientUrl,
    entities: billingEntities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    // Every wait of a pooled connection is bounded (kit/database/waits.ts).
    driverOptions: {
      application_name: 'billing-billing',
      ...pooledConnectionSettings(waits, clientUrl),
      onPoolCreated: forgetEndedSessions,
    },
    // The heavy reads' replica when DATABASE_READ_URL is set (docs/read-replicas.md); none otherwise.
    ...readReplicaOptions(clientUrl, waits, 'billing-billing-read'),
    migrations: {
      migrationsList: billingMigrations,
      tableName: 'mikro_orm_migrations',
      schema: BILLING_SCHEMA,
      snapshot: false,
      silent: true,
    },
    debug: false,
    allowGlobalContext: false,
  };
}

/** Connects and brings the schema up to date (idempotent; advisory-locked against concurrent starts). */
export async function openBillingOrm(
  clientUrl: string,
  poolMax = 10,
  waits: DatabaseWaits = DEFAULT_DATABASE_WAITS,
): Promise<MikroORM> {
  const orm = await MikroORM.init(billingOrmOptions(clientUrl, poolMax, waits));
  try {
    await migrateSchema(orm, clientUrl, BILLING_SCHEMA, MIGRATION_LOCK_KEY, waits);
  } catch (error) {
    await orm.close();
    throw error;
  }
  return orm;
}
