import { organizationAccessTokenRoutes } from './organization-access-tokens.routes.js';
import { organizationRoutes } from './organizations.routes.js';
import type { Route } from './route.js';
import { productRoutes } from './products.routes.js';
import { discountRoutes } from './discounts.routes.js';
import { customerRoutes } from './customers.routes.js';
import { customerPaymentMethodRoutes } from './customer-payment-methods.routes.js';
import { customerSessionRoutes } from './customer-sessions.routes.js';
import { customerPortalCustomerRoutes } from './customer-portal-customers.routes.js';
import { customerPortalCustomerSessionRoutes } from './customer-portal-customer-session.routes.js';
import { customerPortalOrganizationRoutes } from './customer-portal-organizations.routes.js';
import { subscriptionRoutes } from './subscriptions.routes.js';
import { checkoutRoutes } from './checkouts.routes.js';
import { checkoutLinkRoutes } from './checkout-links.routes.js';
import { customerSeatRoutes } from './customer-seats.routes.js';
import { customerMemberRoutes } from './customer-members.routes.js';
import { customerPortalMemberRoutes } from './customer-portal-members.routes.js';
import { customerPortalSeatRoutes } from './customer-portal-seats.routes.js';
import { orderRoutes } from './orders.routes.js';
import { refundRoutes } from './refunds.routes.js';
import { disputeRoutes } from './disputes.routes.js';
import { eventRoutes, eventTypeRoutes } from './events.routes.js';
import { meterRoutes } from './meters.routes.js';
import { metricRoutes } from './metrics.routes.js';
import { customerMeterRoutes } from './customer-meters.routes.js';
import { customFieldRoutes } from './custom-fields.routes.js';
import { taxRoutes } from './taxes.routes.js';
import { invoiceRoutes } from './invoices.routes.js';
import { receiptRoutes } from './receipts.routes.js';
import { customerPortalOrderRoutes } from './customer-portal-orders.routes.js';
import { customerPortalWalletRoutes } from './customer-portal-wallets.routes.js';
import { customerPortalSubscriptionRoutes } from './customer-portal-subscriptions.routes.js';
import { sandboxClockRoutes } from './sandbox-clock.routes.js';
import { sandboxEmailsRoutes } from './sandbox-emails.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { licenseKeyRoutes } from './license-keys.routes.js';
import { fileRoutes } from './files.routes.js';
import { benefitRoutes } from './benefits.routes.js';
import { benefitGrantRoutes } from './benefit-grants.routes.js';
import { customerPortalBenefitGrantRoutes } from './customer-portal-benefit-grants.routes.js';

/** Every documented REST operation. The OpenAPI document and the HTTP router are both built from this list. */
export const routes: Route[] = [
  ...organizationRoutes,
  ...organizationAccessTokenRoutes,
  ...customerRoutes,
  ...customerPaymentMethodRoutes,
  ...customerSessionRoutes,
  ...customerPortalCustomerRoutes,
  ...customerPortalCustomerSessionRoutes,
  ...customerPortalOrganizationRoutes,
  ...subscriptionRoutes,
  ...productRoutes,
  ...discountRoutes,
  ...customerPortalSubscriptionRoutes,
  ...sandboxClockRoutes,
  ...sandboxEmailsRoutes,
  ...webhookRoutes,
  ...checkoutRoutes,
  ...checkoutLinkRoutes,
  ...customerSeatRoutes,
  ...customerMemberRoutes,
  ...customerPortalMemberRoutes,
  ...customerPortalSeatRoutes,
  ...orderRoutes,
  ...refundRoutes,
  ...disputeRoutes,
  ...eventRoutes,
  ...eventTypeRoutes,
  ...meterRoutes,
  ...metricRoutes,
  ...customerMeterRoutes,
  ...customFieldRoutes,
  ...taxRoutes,
  ...invoiceRoutes,
  ...receiptRoutes,
  ...customerPortalOrderRoutes,
  ...customerPortalWalletRoutes,
  ...licenseKeyRoutes,
  ...fileRoutes,
  ...benefitRoutes,
  ...benefitGrantRoutes,
  ...customerPortalBenefitGrantRoutes,
];

/** The routes one environment serves: production leaves out the sandbox-only ones (the sandbox clock). */
export function routesFor(environment: 'production' | 'sandbox'): Route[] {
  return environment === 'sandbox' ? routes : routes.filter(route => !route.sandboxOnly);
}
