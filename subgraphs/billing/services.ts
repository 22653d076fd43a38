import type { Clock } from '../../kit/clock.js';
import type { EnvironmentName } from '../../kit/config.js';
import type { PrincipalCache } from '../../kit/principal-cache.js';
import { DiscountService } from './discounts/discount.service.js';
import { LicenseKeyService } from './license-keys/license-key.service.js';
import { FileService } from './files/file.service.js';
import { FileTransferService } from './files/file-transfer.service.js';
import { ProductService } from './products/product.service.js';
import { CustomerService } from './customers/customer.service.js';
import { CustomerSessionService } from './customer-sessions/customer-session.service.js';
import { CustomerSessionCodeService } from './customer-sessions/customer-session-code.service.js';
import { CustomerEmailUpdateService } from './customers/customer-email-update.service.js';
import type { OrganizationDirectory } from '../identity/contract.js';
import { PortalSettingsPolicy } from './customer-portal/portal-settings.js';
import { CustomerPortalOrganizationService } from './customer-portal/customer-portal-organization.service.js';
import type { SandboxChallengeService } from './payments/sandbox-challenge.js';
import { CheckoutActionSettlement } from './checkouts/checkout-action-settlement.js';
import { CheckoutService } from './checkouts/checkout.service.js';
import { CheckoutLinkService } from './checkout-links/checkout-link.service.js';
import { CustomerSeatService } from './customer-seats/customer-seat.service.js';
import { MemberService } from './members/member.service.js';
import { ownerMembers } from './members/owner-member.js';
import { revokeSeatsOfMember } from './customer-seats/customer-seat.ending.js';
import type { JobRunner } from './jobs/job-queue.js';
import { InvoiceLinks } from './invoices/invoice.link.js';
import { InvoiceService } from './invoices/invoice.service.js';
import { ReceiptService } from './receipts/receipt.service.js';
import { OrderService } from './orders/order.service.js';
import { DraftOrderService } from './draft-orders/draft-order.service.js';
import { WalletService } from './wallets/wallet.service.js';
import type { SaleTax } from './orders/sale-tax.js';
import { RefundService } from './refunds/refund.service.js';
import { DisputeService } from './disputes/dispute.service.js';
import { MeterService } from './meters/meter.service.js';
import { EventTypeService } from './usage-events/event-type.service.js';
import { UsageEventService } from './usage-events/usage-event.service.js';
import { CustomFieldService } from './custom-fields/custom-field.service.js';
import { MetricDashboardService } from './metrics/metric-dashboard.service.js';
import { MetricsService } from './metrics/metrics.service.js';
import type { SandboxDisputeService } from './disputes/sandbox-disputes.js';
import { disputeProcessorEvents } from './disputes/dispute-processor-events.js';
import { TaxReportService } from './tax-reports/tax-report.service.js';
import { UnconfiguredPaymentProcessor } from './payments/payment-processor.selection.js';
import type { PaymentProcessor } from './payments/payment-processor.js';
import { PaymentMethodService } from './payments/payment-method.service.js';
import { SubscriptionService } from './subscriptions/subscription.service.js';
import { createSubscriptionUpdates, type SubscriptionUpdates } from './subscriptions/subscription-updates.js';
import { PlanChangeCharger } from './subscriptions/plan-change-charger.js';
import type { ProrationSettingsSource } from './subscriptions/proration-settings.js';
import { ProcessorOutcomeHandlers } from './payments/processor-outcome-handlers.js';
import { refundProcessorEvents } from './refunds/refund-processor-events.js';
import { renewalChargeSettlement } from './subscriptions/lifecycle/charge-settlement.js';
import { OrganizationClocks } from './time/organization-clocks.js';
import { SandboxClockService } from './time/sandbox-clock.service.js';
import { BenefitGrantEngine, type GracePeriodSource } from './benefits/benefit-grants.engine.js';
import { BenefitGrantService } from './benefits/benefit-grant.service.js';
import { BenefitService } from './benefits/benefit.service.js';
import { benefitTypeHandlers } from './benefits/benefit-type-handlers.js';
import { CustomerBenefitGrantService } from './benefits/customer-benefit-grant.service.js';
import { type IntegrationSettings, integrationsFromSettings } from './benefits/benefit-integrations.config.js';

/**
 * The billing use cases, built once per environment and shared by resolvers and jobs. Each domain
 * folder adds its service here.
 */
export interface BillingServices {
  products: ProductService;
  discounts: DiscountService;
  customers: CustomerService;
  customerSessions: CustomerSessionService;
  /** The customer portal's sign-in by e-mailed code. */
  customerSessionCodes: CustomerSessionCodeService;
  customerEmailUpdates: CustomerEmailUpdateService;
  /** Identity's organization profiles and portal settings (null in tests that start billing alone). */
  organizations: OrganizationDirectory | null;
  /** What the organization lets its customers do in the portal (cancel, plan, seats), for the portal API. */
  portalSettings: PortalSettingsPolicy;
  /** `GET /v1/customer-portal/organizations/{slug}`: the seller and its public products. */
  customerPortalOrganizations: CustomerPortalOrganizationService;
  subscriptions: SubscriptionService;
  /** Update, revoke and the customer portal's cancel/uncancel (with the payments seam). */
  subscriptionUpdates: SubscriptionUpdates;
  /**
   * Each organization's clock (the wall clock in production, the sandbox clock in the sandbox), and the
   * due-work runners an advance of the sandbox clock runs: the recurring engine registers its runners
   * here (`clocks.register`, time/due-work.ts).
   */
  clocks: OrganizationClocks;
  sandboxClock: SandboxClockService;
  checkouts: CheckoutService;
  checkoutLinks: CheckoutLinkService;
  /** Seats of seat-based subscriptions and orders: assign, invite, claim, revoke. */
  customerSeats: CustomerSeatService;
  members: MemberService;
  orders: OrderService;
  /** `POST /v1/orders` and its finalize: drafts charged off-session (docs/selling.md#draft-orders). */
  draftOrders: DraftOrderService;
  /** Customers' wallets: the balance ledger per currency (docs/wallets.md). */
  wallets: WalletService;
  refunds: RefundService;
  disputes: DisputeService;
  /** Usage events: the ingest, lists, names (docs/usage-events.md). */
  usageEvents: UsageEventService;
  eventTypes: EventTypeService;
  /** Meters and their quantities (docs/meters.md). */
  meters: MeterService;
  customFields: CustomFieldService;
  /** `/v1/metrics/`: the numbers per period (docs/metrics.md). */
  metrics: MetricsService;
  metricDashboards: MetricDashboardService;
  /** The sandbox's rehearsal of disputes (runtime.ts fills it: it applies processor events); null elsewhere. */
  sandboxDisputes: SandboxDisputeService | null;
  /** `/v1/taxes/`: tax collected by jurisdiction and rate, from the orders' stored breakdowns. */
  taxReports: TaxReportService;
  /** Order invoices: generation, signed links, the file. */
  invoices: InvoiceService;
  /** Order receipts: signed links and the PDF, rendered when opened. */
  receipts: ReceiptService;
  /** The environment's payment processor (test in the sandbox; Stripe or none in production). */
  payments: PaymentProcessor;
  /**
   * Who settles what the processor's asynchronous outcomes mean beyond the payment: the subscriptions'
   * renewals and dunning (charges), the refunds (refunds). Filled here, read by processor-events.ts.
   */
  processorOutcomes: ProcessorOutcomeHandlers;
  /** The sandbox's simulated 3-D Secure page (set by the runtime, which holds the event handler; null until then). */
  paymentChallenges: SandboxChallengeService | null;
  licenseKeys: LicenseKeyService;
  /** `/v1/files/` (downloadables) and the bytes behind their signed links. */
  files: FileService;
  fileTransfers: FileTransferService;
  /** The Customer Portal's saved payment methods (the default is what renewals charge). */
  paymentMethods: PaymentMethodService;
  benefits: BenefitService;
  benefitGrants: BenefitGrantService;
  /** Grants and revokes benefits as subscriptions and orders move (the `benefits.reconcile` job). */
  benefitEngine: BenefitGrantEngine;
  customerBenefitGrants: CustomerBenefitGrantService;
  /** Tax on checkouts, orders, renewals and plan changes (null: none computed). */
  tax: SaleTax | null;
}

export interface BillingServiceDependencies {
  secret: string;
  clock: Clock;
  /** Which environment these services serve (the sandbox clock exists only in the sandbox). */
  environment: EnvironmentName;
  /** Public base URL of the environment (customer portal links). */
  publicUrl: string;
  /** The customer session principals' cache, evicted when a customer is deleted. */
  principals?: PrincipalCache;
  /** Who moves the money (payment-processor.selection.ts); none configured when absent. */
  payments?: PaymentProcessor;
  /**
   * The organization's proration behaviours (identity's `subscription_settings`), read through identity
   * by the composition root; absent: Polar's default `prorate` for every change.
   */
  prorationSettings?: ProrationSettingsSource;
  /** The durable jobs (checkout fulfilment runs right after confirm commits). */
  jobs?: JobRunner | null;
  /** The organization's `benefit_revocation_grace_period` (identity owns it); 0 days when not wired. */
  gracePeriodDays?: GracePeriodSource;
  /** Identity's public organization profiles and portal settings (embedded: in-process; distributed: signed RPC). */
  organizations?: OrganizationDirectory | null;
  /** The benefit integrations' vendor credentials (benefit-integrations.ts). */
  integrations?: IntegrationSettings;
  /** How long an advance of a sandbox clock waits for another of the same organization (organization-clocks.ts). */
  sandboxClockWaitMs?: number;
  /**
   * Tax on what billing sells (orders/sale-tax.ts: the calculator, the VAT-id verifier, the sellers'
   * settings), built once per environment by the runtime; absent: no tax is computed.
   */
  tax?: SaleTax | null;
}

export function createBillingServices(deps: BillingServiceDependencies): BillingServices {
  const customerSessions = new CustomerSessionService(deps.secret, deps.publicUrl, deps.principals);
  const clocks = new OrganizationClocks(deps.clock, deps.environment, { waitMs: deps.sandboxClockWaitMs });
  const payments = deps.payments ?? new UnconfiguredPaymentProcessor();
  const checkouts = new CheckoutService({
    publicUrl: deps.publicUrl,
    payments,
    sessions: customerSessions,
    jobs: deps.jobs ?? null,
    clocks,
    organizations: deps.organizations ?? null,
    tax: deps.tax ?? null,
  });
  const benefitEngine = new BenefitGrantEngine(
    benefitTypeHandlers(integrationsFromSettings(deps.integrations)),
    deps.gracePeriodDays,
  );
  return {
    products: new ProductService(),
    discounts: new DiscountService(),
    customers: new CustomerService(undefined, customerSessions, ownerMembers),
    customerSessions,
    customerSessionCodes: new CustomerSessionCodeService({
      secret: deps.secret,
      publicUrl: deps.publicUrl,
      sessions: customerSessions,
      organizations: deps.organizations ?? null,
      jobs: deps.jobs ?? null,
    }),
    customerEmailUpdates: new CustomerEmailUpdateService({
      secret: deps.secret,
      publicUrl: deps.publicUrl,
      sessions: customerSessions,
      organizations: deps.organizations ?? null,
      jobs: deps.jobs ?? null,
      owners: ownerMembers,
    }),
    organizations: deps.organizations ?? null,
    portalSettings: new PortalSettingsPolicy(deps.organizations ?? null),
    customerPortalOrganizations: new CustomerPortalOrganizationService(deps.organizations ?? null),
    subscriptions: new SubscriptionService(),
    subscriptionUpdates: createSubscriptionUpdates({
      charger: new PlanChangeCharger(payments, deps.tax ?? null),
      prorationSettings: deps.prorationSettings,
      tax: deps.tax ?? null,
    }),
    clocks,
    sandboxClock: new SandboxClockService(clocks),
    checkouts,
    checkoutLinks: new CheckoutLinkService({ publicUrl: deps.publicUrl, checkouts }),
    customerSeats: new CustomerSeatService({
      secret: deps.secret,
      publicUrl: deps.publicUrl,
      sessions: customerSessions,
      organizations: deps.organizations ?? null,
      jobs: deps.jobs ?? null,
    }),
    members: new MemberService(deps.organizations ?? null, { revokeSeats: revokeSeatsOfMember }),
    orders: new OrderService(),
    draftOrders: new DraftOrderService({
      organizations: deps.organizations ?? null,
      tax: deps.tax ?? null,
      jobs: deps.jobs ?? null,
    }),
    wallets: new WalletService(),
    refunds: new RefundService(payments),
    disputes: new DisputeService(payments),
    usageEvents: new UsageEventService(),
    eventTypes: new EventTypeService(),
    meters: new MeterService(),
    customFields: new CustomFieldService(),
    metrics: new MetricsService(),
    metricDashboards: new MetricDashboardService(),
    sandboxDisputes: null,
    taxReports: new TaxReportService(deps.organizations ?? null),
    invoices: new InvoiceService(new InvoiceLinks(deps.secret, deps.publicUrl), deps.tax ?? null),
    receipts: new ReceiptService(new InvoiceLinks(deps.secret, deps.publicUrl, 'receipt'), deps.tax ?? null),
    payments,
    processorOutcomes: new ProcessorOutcomeHandlers()
      .onCharge(renewalChargeSettlement)
      .onRefund(refundProcessorEvents)
      .onDispute(disputeProcessorEvents)
      .onCheckout(new CheckoutActionSettlement(deps.publicUrl)),
    paymentChallenges: null,
    licenseKeys: new LicenseKeyService(),
    files: new FileService({ secret: deps.secret, publicUrl: deps.publicUrl }),
    fileTransfers: new FileTransferService(deps.secret),
    paymentMethods: new PaymentMethodService(payments, clocks),
    benefits: new BenefitService(benefitEngine),
    benefitGrants: new BenefitGrantService(),
    customerBenefitGrants: new CustomerBenefitGrantService(deps.jobs ?? null),
    benefitEngine,
    tax: deps.tax ?? null,
  };
}
