import type { NonEmptyArray } from 'type-graphql';
import type { ReferenceResolvers } from '../../kit/graphql/federation.js';
import { DiscountResolver } from './discounts/discount.resolver.js';
import { organizationReference } from './organizations/organization.reference.js';
import { OrganizationProductsResolver } from './products/organization-products.resolver.js';
import { ProductResolver } from './products/product.resolver.js';
import { CustomerResolver } from './customers/customer.resolver.js';
import { CustomerPortalCustomerResolver } from './customers/customer-portal.resolver.js';
import { customerReference } from './customers/customer.reference.js';
import { OrganizationCustomersResolver } from './customers/organization-customers.resolver.js';
import { CustomerSessionResolver } from './customer-sessions/customer-session.resolver.js';
import { CustomerSessionCodeResolver } from './customer-sessions/customer-session-code.resolver.js';
import { CustomerEmailUpdateResolver } from './customers/customer-email-update.resolver.js';
import { CustomerPortalOrganizationResolver } from './customer-portal/customer-portal-organization.resolver.js';
import { CheckoutResolver } from './checkouts/checkout.resolver.js';
import { CheckoutLinkResolver } from './checkout-links/checkout-link.resolver.js';
import { CustomerSeatResolver } from './customer-seats/customer-seat.resolver.js';
import { MemberResolver } from './members/member.resolver.js';
import { CustomerPortalOrdersResolver } from './orders/customer-portal-orders.resolver.js';
import { CustomerPortalWalletsResolver } from './wallets/customer-portal-wallets.resolver.js';
import { DraftOrderResolver } from './draft-orders/draft-order.resolver.js';
import { CustomerOrdersResolver, OrderResolver, SubscriptionOrdersResolver } from './orders/order.resolver.js';
import { PaymentResolver } from './payments/payment.resolver.js';
import { RefundResolver } from './refunds/refund.resolver.js';
import { DisputeResolver } from './disputes/dispute.resolver.js';
import { MeterResolver } from './meters/meter.resolver.js';
import { CustomerMeterResolver } from './customer-meters/customer-meter.resolver.js';
import { SubscriptionMetersResolver } from './subscriptions/subscription-meters.resolver.js';
import { UsageEventResolver } from './usage-events/usage-event.resolver.js';
import { CustomFieldResolver } from './custom-fields/custom-field.resolver.js';
import { MetricsResolver } from './metrics/metrics.resolver.js';
import { TaxReportResolver } from './tax-reports/tax-report.resolver.js';
import { InvoiceResolver } from './invoices/invoice.resolver.js';
import { invoiceGenerationReference } from './invoices/invoice.reference.js';
import { ReceiptResolver } from './receipts/receipt.resolver.js';
import { receiptFileReference } from './receipts/receipt.reference.js';
import { CustomerPortalPaymentMethodsResolver } from './payments/customer-portal-payment-methods.resolver.js';
import { CustomerPaymentMethodsResolver } from './payments/customer-payment-methods.resolver.js';
import { CustomerPortalOrderPaymentStatusResolver } from './payments/customer-portal-order-payment-status.resolver.js';
import { SubscriptionResolver } from './subscriptions/subscription.resolver.js';
import { CustomerSubscriptionsResolver } from './subscriptions/customer-subscriptions.resolver.js';
import { OrganizationSubscriptionsResolver } from './subscriptions/organization-subscriptions.resolver.js';
import { subscriptionReference } from './subscriptions/subscription.reference.js';
import { SubscriptionUpdatesResolver } from './subscriptions/subscription-updates.resolver.js';
import { CustomerPortalSubscriptionsResolver } from './subscriptions/customer-portal-subscriptions.resolver.js';
import { FileResolver } from './files/file.resolver.js';
import { LicenseKeyGrantedByResolver } from './license-keys/license-key.granted-by.js';
import { ProductDeletableResolver } from './products/product-deletable.resolver.js';
import { LicenseKeyResolver } from './license-keys/license-key.resolver.js';
import { SandboxClockResolver } from './time/sandbox-clock.resolver.js';
import { SandboxChallengeResolver } from './payments/sandbox-challenge.resolver.js';
import { SandboxMailResolver } from './emails/sandbox-mail.js';
import { BenefitResolver } from './benefits/benefit.resolver.js';
import { CustomerStateResolver } from './benefits/customer-state.resolver.js';
import { UserBenefitsResolver } from './benefits/user-benefits.resolver.js';
import { CustomerBenefitGrantResolver } from './benefits/customer-benefit-grant.resolver.js';

/** Every resolver class and reference resolver of the billing subgraph. Each domain adds its own. */
export const billingResolvers: Function[] = [
  ProductResolver,
  OrganizationProductsResolver,
  DiscountResolver,
  CustomerResolver,
  OrganizationCustomersResolver,
  CustomerSessionResolver,
  CustomerSessionCodeResolver,
  CustomerEmailUpdateResolver,
  CustomerPortalOrganizationResolver,
  CustomerPortalCustomerResolver,
  SubscriptionResolver,
  CustomerSubscriptionsResolver,
  OrganizationSubscriptionsResolver,
  SubscriptionUpdatesResolver,
  CustomerPortalSubscriptionsResolver,
  SandboxClockResolver,
  SandboxChallengeResolver,
  SandboxMailResolver,
  CheckoutResolver,
  CheckoutLinkResolver,
  CustomerSeatResolver,
  MemberResolver,
  OrderResolver,
  SubscriptionOrdersResolver,
  CustomerOrdersResolver,
  PaymentResolver,
  RefundResolver,
  DisputeResolver,
  UsageEventResolver,
  MeterResolver,
  SubscriptionMetersResolver,
  CustomerMeterResolver,
  CustomFieldResolver,
  MetricsResolver,
  TaxReportResolver,
  InvoiceResolver,
  ReceiptResolver,
  CustomerPortalOrdersResolver,
  CustomerPortalWalletsResolver,
  DraftOrderResolver,
  LicenseKeyResolver,
  LicenseKeyGrantedByResolver,
  ProductDeletableResolver,
  FileResolver,
  CustomerPortalPaymentMethodsResolver,
  CustomerPaymentMethodsResolver,
  CustomerPortalOrderPaymentStatusResolver,
  BenefitResolver,
  CustomerStateResolver,
  UserBenefitsResolver,
  CustomerBenefitGrantResolver,
];

export const billingReferenceResolvers: ReferenceResolvers = {
  ...organizationReference,
  ...customerReference,
  ...subscriptionReference,
  ...invoiceGenerationReference,
  ...receiptFileReference,
};

export const resolversForSchema = () => billingResolvers as unknown as NonEmptyArray<Function>;
