/**
 * The billing subgraph's published contract: everything another part of the code base (the REST
 * adapter, the gateway, another subgraph) may import from billing, and nothing else. What is not
 * exported here (entities, repositories, services, resolvers) may change without telling anyone.
 * `test/contract/import-cycles.test.ts` fails when a file outside `subgraphs/billing/` imports any
 * other billing module (composition roots may also import `runtime.ts`).
 *
 * Kept free of I/O: importing it loads no database or GraphQL schema.
 */

// Who may call each operation: the route table checks the very objects the resolvers check.
export { CHECKOUT_CLIENT, CHECKOUTS_READ, CHECKOUTS_WRITE } from './checkouts/checkout.access.js';
export {
  CHECKOUT_LINK_OPEN,
  CHECKOUT_LINKS_READ,
  CHECKOUT_LINKS_WRITE,
} from './checkout-links/checkout-link.access.js';
export {
  CUSTOMER_PORTAL_SEATS_READ,
  CUSTOMER_PORTAL_SEATS_WRITE,
  CUSTOMER_SEAT_CLAIM,
  CUSTOMER_SEATS_READ,
  CUSTOMER_SEATS_WRITE,
} from './customer-seats/customer-seat.access.js';
export {
  CUSTOMER_PORTAL_MEMBERS,
  CUSTOMER_PORTAL_USER,
  MEMBERS_READ,
  MEMBERS_WRITE,
} from './members/member.access.js';
export { MEMBER_DEFAULT_SORTING, MEMBER_SORT_KEYS } from './members/member.read.js';
export { ORDERS_READ, ORDERS_WRITE } from './orders/order.access.js';
export { TAXES_READ } from './tax-reports/tax-report.access.js';
export { PAYMENTS_READ } from './payments/payment.access.js';
export { REFUNDS_READ, REFUNDS_WRITE } from './refunds/refund.access.js';
export { DISPUTES_READ, DISPUTES_WRITE } from './disputes/dispute.access.js';
export { EVENTS_READ, EVENTS_WRITE } from './usage-events/usage-event.access.js';
export { METERS_READ, METERS_WRITE } from './meters/meter.access.js';
export {
  EVENT_DEFAULT_SORTING,
  EVENT_NAME_DEFAULT_SORTING,
  EVENT_NAME_SORT_KEYS,
  EVENT_SORT_KEYS,
  EVENT_TYPE_DEFAULT_SORTING,
  EVENT_TYPE_SORT_KEYS,
} from './usage-events/usage-event.sorting.js';
export { EVENT_SOURCES } from './usage-events/usage-event.entity.js';
export { MAX_EVENT_NAME_LENGTH, MAX_INGEST_BATCH } from './usage-events/ingest-body.validation.js';
export { METER_DEFAULT_SORTING, METER_SORT_KEYS } from './meters/meter.sorting.js';
export { METER_UNITS } from './meters/meter.entity.js';
export {
  AGGREGATION_FUNCTIONS,
  FILTER_CONJUNCTIONS,
  FILTER_OPERATORS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_STRING_LENGTH,
  MIN_QUANTITIES_START,
  TIME_INTERVALS,
} from './meters/meter-sql.js';
export { CUSTOM_FIELDS_READ, CUSTOM_FIELDS_WRITE } from './custom-fields/custom-field.access.js';
export { CUSTOM_FIELD_DEFAULT_SORTING, CUSTOM_FIELD_SORT_KEYS } from './custom-fields/custom-field.sorting.js';
export { CUSTOM_FIELD_KINDS } from './custom-fields/custom-field.entity.js';
export { METRICS_READ, METRICS_WRITE } from './metrics/metrics.access.js';
export { METRIC_INTERVALS, isTimeZone } from './metrics/metric-window.js';
export { INVOICE_FILE } from './invoices/invoice.access.js';
export { CUSTOMER_SESSION_CODE, CUSTOMER_SESSIONS_WRITE } from './customer-sessions/customer-session.access.js';
export { CUSTOMER_PORTAL_PUBLIC } from './customer-portal/customer-portal.access.js';
export {
  CUSTOMER_EMAIL_UPDATE_TOKEN,
  CUSTOMER_PORTAL_READ,
  CUSTOMER_PORTAL_WRITE,
  CUSTOMERS_READ,
  CUSTOMERS_WRITE,
} from './customers/customer.access.js';
export { DISCOUNTS_READ, DISCOUNTS_WRITE } from './discounts/discount.access.js';
export { BENEFITS_READ, BENEFITS_WRITE, USER_BENEFITS_READ } from './benefits/benefit.access.js';
export { PRODUCTS_READ, PRODUCTS_WRITE } from './products/product.access.js';
export { SUBSCRIPTIONS_READ, SUBSCRIPTIONS_WRITE } from './subscriptions/subscription.access.js';
export { SANDBOX_CLOCK_ADVANCE, SANDBOX_CLOCK_READ } from './time/sandbox-clock.access.js';
export { SANDBOX_EMAILS_READ } from './emails/sandbox-mail.access.js';
// The query parameter of a customer e-mail's one-time portal link (the portal's entry reads it).
export { EMAIL_LINK_PARAM } from './customer-emails/email-link.js';
// The longest move of one sandbox clock advance (the route's `seconds` maximum).
export { MAX_ADVANCE_SECONDS } from './time/sandbox-clock.limits.js';
export { FILE_LINK_HOLDER, FILES_READ, FILES_WRITE } from './files/file.access.js';
export { LICENSE_KEY_CLIENT, LICENSE_KEYS_READ, LICENSE_KEYS_WRITE } from './license-keys/license-key.access.js';

// Enums that travel on the wire.
export { BENEFIT_TYPES } from './benefits/benefit-types.js';
export { CustomerCancellationReason, MANUAL_REFUND_REASONS, SubscriptionStatus } from './shared/enums.js';

// What a reverse-charged sale says (the hosted checkout page prints it as the invoices do).
export { REVERSE_CHARGE_MENTION } from './invoices/invoice.document.js';
export { isReverseCharged, taxLinesOf } from './invoices/invoice-tax.js';

// Limits the edge validates before a request reaches billing.
export { CUSTOMER_NAME_MAX_LENGTH } from './customers/customer.validation.js';
export { METADATA_KEY_MAX_LENGTH, METADATA_MAX_KEYS, METADATA_VALUE_MAX_LENGTH } from './shared/metadata.js';

// Sort keys each list accepts, and its default order.
export { CUSTOMER_DEFAULT_SORTING, CUSTOMER_SORT_KEYS } from './customers/customer.sorting.js';
export { DISCOUNT_DEFAULT_SORTING, DISCOUNT_SORT_KEYS } from './discounts/discount.sorting.js';
export {
  BENEFIT_DEFAULT_SORTING,
  BENEFIT_GRANT_DEFAULT_SORTING,
  BENEFIT_GRANT_SORT_KEYS,
  BENEFIT_SORT_KEYS,
  CUSTOMER_BENEFIT_GRANT_DEFAULT_SORTING,
  CUSTOMER_BENEFIT_GRANT_SORT_KEYS,
} from './benefits/benefit.sorting.js';
export { PRODUCT_DEFAULT_SORTING, PRODUCT_SORT_KEYS } from './products/product.sorting.js';
export { CHECKOUT_DEFAULT_SORTING, CHECKOUT_SORT_KEYS } from './checkouts/checkout.sorting.js';
export { CHECKOUT_LINK_DEFAULT_SORTING, CHECKOUT_LINK_SORT_KEYS } from './checkout-links/checkout-link.sorting.js';
export { ORDER_DEFAULT_SORTING, ORDER_SORT_KEYS } from './orders/order.sorting.js';
export {
  TAX_JURISDICTION_DEFAULT_SORTING,
  TAX_JURISDICTION_SORT_KEYS,
} from './tax-reports/tax-report.sorting.js';
export { PAYMENT_DEFAULT_SORTING, PAYMENT_SORT_KEYS } from './payments/payment.sorting.js';
export { REFUND_DEFAULT_SORTING, REFUND_SORT_KEYS } from './refunds/refund.sorting.js';
export { DISPUTE_DEFAULT_SORTING, DISPUTE_SORT_KEYS } from './disputes/dispute.sorting.js';
export { DISPUTE_STATUSES } from './disputes/dispute.entity.js';
export { SUBSCRIPTION_DEFAULT_SORTING, SUBSCRIPTION_SORT_KEYS } from './subscriptions/subscription.sorting.js';

// Wire builders: a GraphQL result (camelCase) to the exact keys of Polar's variant.
export { discountBaseWire, discountWire } from './discounts/discount.wire.js';
export { benefitGrantWire, benefitPublicWire, benefitWire, customerStateWire } from './benefits/benefit.wire.js';
export { priceWire, productWire } from './products/product.wire.js';
export { checkoutPublicWire, checkoutWire } from './checkouts/checkout.wire.js';
export { checkoutLinkWire } from './checkout-links/checkout-link.wire.js';
export { customerSeatWire } from './customer-seats/customer-seat.wire.js';
export { orderWire } from './orders/order.wire.js';
export { refundWire } from './refunds/refund.wire.js';
export { subscriptionWire } from './subscriptions/subscription.wire.js';
export {
  licenseKeyActivationCreatedWire,
  licenseKeyActivationWire,
  licenseKeyWire,
  licenseKeyWithActivationsWire,
  validatedLicenseKeyWire,
} from './license-keys/license-key.wire.js';
export { benefitDownloadableFileWire, downloadableWire, fileUploadWire, fileWire } from './files/file.wire.js';
export {
  customerBenefitGrantWire,
  customerOrderWire,
  customerOrganizationWire,
  customerPaymentMethodWire,
  customerSubscriptionWire,
} from './customer-portal/portal.wire.js';

// The storage routes behind signed file links (rest-adapter/inbound/storage/): slice size and path prefix.
export { STORAGE_PATH_PREFIX } from './files/file-links.js';
export { CHUNK_BYTES as FILE_CHUNK_BYTES, MAX_PART_BYTES as FILE_MAX_PART_BYTES } from './files/file.validation.js';

// Which payment processor takes the money in an environment, for the start-up banner and /readyz.
export { describePaymentProcessor, type PaymentProcessorDescription } from './payments/payment-processor.selection.js';
export { CUSTOMER_METERS_READ, CUSTOMER_PORTAL_METERS_READ } from './customer-meters/customer-meter.access.js';
export { CUSTOMER_METER_DEFAULT_SORTING, CUSTOMER_METER_SORT_KEYS } from './customer-meters/customer-meter.sorting.js';
