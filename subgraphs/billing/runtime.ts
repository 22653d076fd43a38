import { UsageBillingJob } from './usage-billing/usage-billing.job.js';
import { MetricRollupBackfill } from './metrics/metric-rollup-backfill.js';
import { UsageEventPartitions } from './usage-events/usage-event-partitions.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import { listenForPrincipalInvalidations } from '../../kit/database/principal-invalidations.js';
import type { SubgraphRuntime } from '../../kit/graphql/subgraph-runtime.js';
import type { LeakedTokenRevoker } from '../../kit/leaked-tokens.js';
import { InProcessLeakedCustomerSessionRevoker } from './customer-sessions/leaked-customer-session.revoker.js';
import { PrincipalCache } from '../../kit/principal-cache.js';
import type { Config, DatabaseWaits, EnvironmentName } from '../../kit/config.js';
import { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';
import { CHECKOUT_FULFILMENT_JOB, fulfilmentJobKey } from './checkouts/checkout-confirm.js';
import { ORDER_FINALIZE_JOB, orderFinalizeJob } from './draft-orders/draft-order-finalize.js';
import { checkoutFulfilment } from './checkouts/checkout.fulfilment.js';
import { openTestProcessorLedger } from './payments/test-processor/test-processor-ledger.js';
import { CheckoutExpiry } from './checkouts/checkout-expiry.js';
import { DueWorkSweep } from './time/due-work-sweep.js';
import { JobRunner } from './jobs/job-queue.js';
import { BENEFITS_RECONCILE_JOB, benefitReconcileJob } from './benefits/benefit-grants.job.js';
import { CUSTOMER_EMAIL_JOB, customerEmailJob } from './customer-emails/customer-email.job.js';
import { BenefitDueWork } from './benefits/benefit-due-work.js';
import { EMAIL_REDACT_JOB, EMAIL_SEND_JOB, emailRedactor, emailSender } from './emails/email-outbox.js';
import { LogMailer, type Mailer } from '../../kit/email/mailer.js';
import type { OwnerMailbox } from '../../kit/email/owner-mailbox.js';
import { InProcessOwnerMailbox } from './emails/owner-mailbox.provider.js';
import { CustomerEmailRecorder } from './customer-emails/customer-email-recorder.js';
import { CustomerEmailReminders } from './customer-emails/customer-email-reminders.js';
import type { Logger } from '../../kit/logger.js';
import type { OrganizationDirectory } from '../identity/contract.js';
import { choosePaymentProcessor, createPaymentProcessor } from './payments/payment-processor.selection.js';
import { OwnerNoticeRelay } from '../../kit/email/owner-notices.js';
import { SandboxChallengeService } from './payments/sandbox-challenge.js';
import { ProcessorEventHandler } from './payments/processor-events.js';
import { SandboxDisputeService } from './disputes/sandbox-disputes.js';
import type { ProcessorWebhooks } from '../../kit/processor-webhooks.js';
import { StripeWebhookReceiver } from './payments/stripe/stripe-webhook.receiver.js';
import type { BillingContext } from './context.js';
import type { IntegrationSettings } from './benefits/benefit-integrations.config.js';
import { openBillingOrm } from './orm.js';
import { SaleTax } from './orders/sale-tax.js';
import { sellerTaxFrom } from './orders/seller-tax.js';
import { type TaxSettings, taxServices } from './tax/tax-setup.js';
import { RenewalEngine } from './subscriptions/lifecycle/renewal-engine.js';
import { RenewalScheduler } from './subscriptions/lifecycle/renewal-scheduler.js';
import { BILLING_SUBGRAPH, buildBillingSchema } from './schema.js';
import { countingCharges } from './payments/counted-charges.js';
import { type BillingServices, createBillingServices } from './services.js';
import { type ProrationSettingsSource, prorationSettingsFrom } from './subscriptions/proration-settings.js';

// What a composition root (embedded/) wires around the runtime, so that it imports nothing else of billing.
export { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';
export { OutboxRelay } from './events/outbox-relay.js';
// The schema migrations alone, for the migration step of a deployment (cli/migrate.ts).
export { openBillingOrm } from './orm.js';
export { BILLING_QUEUE_DEPTH_SQL } from './jobs/queue-depth.queries.js';

// For the bench's one-hop baseline (bench/baseline-server.ts, a composition root), which answers
// GET /v1/subscriptions/ and /v1/orders/ with billing's own read statements and shaping, minus the
// framework: the ORM options (entity metadata only, never connected), the list filters, the read models
// and the row → wire steps. They load billing's entities and GraphQL types, so they stay out of
// contract.ts, which the REST adapter imports.
export { billingOrmOptions } from './orm.js';
export { normaliseFilters } from './subscriptions/subscription.filters.js';
export { subscriptionRead } from './subscriptions/subscription.read.js';
export { BillingSubscriptionType } from './subscriptions/subscription.type.js';
export { subscriptionWireOf } from './subscriptions/subscription.events.js';
export { orderRead } from './orders/order.read.js';
export { OrderType } from './orders/order.type.js';
export { familyStatement } from './metrics/metrics.queries.js';
export { metricWindow } from './metrics/metric-window.js';
export { rollupAnswers } from './metrics/metric-rollups.js';
export { METRIC_CATALOGUE } from './metrics/metric.catalogue.js';

export interface BillingRuntime extends SubgraphRuntime<BillingContext> {
  orm: MikroORM;
  services: BillingServices;
  /** `polar_cst_` bearers → customer principals (kit/composite-principal-resolver.ts routes them here). */
  principals: CustomerSessionPrincipalResolver;
  /** The durable jobs of this database (checkout fulfilment, e-mails, benefit grants). */
  jobs: JobRunner;
  /** Runs due work (checkout expiry) by the wall clock; the sandbox clock's advance runs the same runners. */
  dueWork: DueWorkSweep;
  /** The recurring engine's production loop (renewals, dunning retries, resumes by the wall clock). */
  renewals: RenewalScheduler;
  /** Revokes leaked customer session tokens (secret scanning, kit/leaked-tokens.ts). */
  leakedTokens: LeakedTokenRevoker;
  /** Owner notifications (webhook endpoint disabled, leaked token revoked) into the e-mail outbox. */
  ownerMailbox: OwnerMailbox;
  /** Stripe's webhooks, verified and applied exactly once (`POST /v1/integrations/stripe/webhook`). */
  processorWebhooks: ProcessorWebhooks;
  close(): Promise<void>;
}

/** Connects, migrates and builds the billing subgraph for one environment's database. */
export async function startBilling(options: {
  databaseUrl: string;
  secret: string;
  clock: Clock;
  environment: EnvironmentName;
  publicUrl: string;
  poolMax?: number;
  /** The bounds of every database wait (kit/database/waits.ts); the defaults when absent. */
  databaseWaits?: DatabaseWaits;
  /**
   * How long an advance of a sandbox clock waits for another advance of the same organization before
   * it answers 409 `SandboxClockBusy` (organization-clocks.ts); 5 s when absent.
   */
  sandboxClockWaitMs?: number;
  /** Which processor takes payments (payment-processor.selection.ts); production with none when absent. */
  payments?: Pick<Config, 'PAYMENT_PROCESSOR' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'> &
    Partial<Pick<Config, 'STRIPE_API_URL'>>;
  /** false: no job loop (tests that drive jobs themselves); the due work sweep is then off too by default. */
  runJobs?: boolean;
  /** The organizations' proration behaviours; read from `organizations` when absent, else Polar's `prorate`. */
  prorationSettings?: ProrationSettingsSource;
  /** Run the due work sweep (checkouts to expire when their time comes); default `runJobs`. */
  sweepDueWork?: boolean;
  /**
   * An organization's benefit revocation grace period in days (identity owns the setting); read from
   * `organizations` when absent, else 0.
   */
  gracePeriodDays?: (organizationId: string) => Promise<number>;
  /**
   * The renewal scheduler's pause before it looks again at renewal work still due after a pass (a
   * failed charge; default 10 s); 0: no scheduler. It otherwise runs when work falls due or is written.
   */
  renewalRetryMs?: number;
  /** Who sends the e-mail outbox (kit/email): SMTP when configured; the log (or nothing) otherwise. */
  mailer?: Mailer;
  logger?: Logger;
  /** Identity's organization profiles and portal settings (in-process or signed RPC). */
  organizations?: OrganizationDirectory | null;
  /** The benefit integrations' vendor credentials (none: every integration reports "not configured"). */
  integrations?: IntegrationSettings;
  /** Where VAT ids are checked and whether Stripe Tax can be asked (tax/tax-setup.ts); absent: the defaults. */
  tax?: TaxSettings;
}): Promise<BillingRuntime> {
  const orm = await openBillingOrm(options.databaseUrl, options.poolMax, options.databaseWaits);
  // The grace period and the proration choice are identity's settings: given, or read from its
  // directory (in-process or RPC).
  const directory = options.organizations ?? null;
  const gracePeriodDays =
    options.gracePeriodDays ??
    (directory
      ? async (organizationId: string) =>
          (await directory.profile(organizationId))?.billing.benefitRevocationGracePeriod ?? 0
      : undefined);
  const schema = await buildBillingSchema();
  const cache = new PrincipalCache();
  // Customers deleted by any process on this database end their cached sessions here at once.
  let invalidations: Awaited<ReturnType<typeof listenForPrincipalInvalidations>>;
  try {
    invalidations = await listenForPrincipalInvalidations(options.databaseUrl, cache);
  } catch (error) {
    await orm.close();
    throw error;
  }
  const choice = choosePaymentProcessor(options.payments ?? {}, options.environment);
  const ledger =
    choice.processor === 'test' ? await openTestProcessorLedger(options.databaseUrl, options.databaseWaits) : null;
  const payments = countingCharges(
    createPaymentProcessor(choice, { em: (ledger ?? orm).em.fork(), clock: options.clock }),
    options.environment,
  );
  const jobs = new JobRunner(orm, options.clock, options.environment, options.logger);
  jobs.register(
    EMAIL_SEND_JOB,
    emailSender({
      orm,
      clock: options.clock,
      mailer: options.mailer ?? new LogMailer(options.logger ?? null),
      // The sandbox delivers only to the organization's members (docs/email.md#sandbox).
      sandboxRecipients:
        options.environment === 'sandbox' && directory
          ? organizationId => directory.memberEmails(organizationId)
          : null,
    }),
  );
  // Customer e-mails: queued with the events of each change, reminders as due work (docs/email.md).
  const customerEmailSender = { secret: options.secret, publicUrl: options.publicUrl, clock: options.clock };
  // Without identity's directory (no organization to name or switches to read) no customer e-mail at all.
  if (directory) orm.em.getEventManager().registerSubscriber(new CustomerEmailRecorder(options.clock));
  const reminders = new CustomerEmailReminders(orm, customerEmailSender, directory);
  jobs.register(EMAIL_REDACT_JOB, emailRedactor({ orm }));
  jobs.register(
    CHECKOUT_FULFILMENT_JOB,
    checkoutFulfilment({ orm, clock: options.clock, payments, publicUrl: options.publicUrl }),
  );
  // Tax on every sale (docs/tax.md#how-billing-applies-it): one calculator and verifier per environment,
  // the sellers' settings read through identity's directory at each sale.
  const taxes = taxServices({
    sandbox: options.environment === 'sandbox',
    config: options.tax ?? {},
    logger: options.logger,
  });
  const sale = new SaleTax(taxes.calculator, taxes.vatIds, sellerTaxFrom(directory));
  const services = createBillingServices({
    secret: options.secret,
    clock: options.clock,
    environment: options.environment,
    publicUrl: options.publicUrl,
    principals: cache,
    payments,
    jobs,
    prorationSettings: options.prorationSettings ?? (directory ? prorationSettingsFrom(directory) : undefined),
    gracePeriodDays,
    organizations: options.organizations ?? null,
    integrations: options.integrations,
    sandboxClockWaitMs: options.sandboxClockWaitMs,
    tax: sale,
  });
  // Due work: an advance of the sandbox clock runs these runners at each instant it passes; the sweep
  // runs them on the wall clock.
  const checkoutExpiry = new CheckoutExpiry(orm, options.publicUrl);
  services.clocks.register(checkoutExpiry);
  services.clocks.register(reminders);
  // The billing job: usage events into billing entries (docs/usage-billing.md#billing-entries).
  const usageBilling = new UsageBillingJob(orm);
  services.clocks.register(usageBilling);
  // The usage events' partitions of this month and the next ones, made ahead (docs/usage-events.md#partitions).
  const partitions = new UsageEventPartitions(orm, options.clock, options.logger);
  // The metrics' rollups of the organizations that had rows before them (docs/metrics.md#rollups).
  const rollupBackfill = new MetricRollupBackfill(orm, options.clock, options.logger);
  const dueWork = new DueWorkSweep(
    orm,
    options.clock,
    services.clocks,
    [checkoutExpiry, reminders, usageBilling],
    options.logger,
  );
  // The recurring engine: the sandbox clock's advance runs it per organization, this loop by the wall clock.
  const engine = new RenewalEngine({
    orm,
    payments,
    tax: sale,
    logger: options.logger,
    environment: options.environment,
  });
  services.clocks.register(engine);
  const renewalRetryMs = options.renewalRetryMs ?? 10_000;
  const renewals = new RenewalScheduler(engine, options.clock, options.logger, renewalRetryMs);
  if (directory)
    jobs.register(
      CUSTOMER_EMAIL_JOB,
      customerEmailJob({
        orm,
        sender: customerEmailSender,
        clocks: services.clocks,
        engine: services.benefitEngine,
        directory,
      }),
    );
  jobs.register(ORDER_FINALIZE_JOB, orderFinalizeJob({ orm, clocks: services.clocks, payments }));
  jobs.register(
    BENEFITS_RECONCILE_JOB,
    benefitReconcileJob({ orm, clock: options.clock, clocks: services.clocks, engine: services.benefitEngine }),
  );
  // Grants follow inside a sandbox clock advance too (after the runners registered before it).
  services.clocks.register(new BenefitDueWork(orm, services.benefitEngine, jobs, gracePeriodDays));
  // Billing's background workers (jobs, due work, renewals, owner notices) are enrolled on the process's
  // one background-work spine (kit/background/, docs/background-work.md): each wakes when its work is
  // written (by any process on this database: triggers notify at commit) or falls due, and does not
  // touch the database otherwise. Jobs a crash left behind, or due later, are picked up by the job worker.
  const runJobs = options.runJobs ?? true;
  // Billing's own owner e-mails (leaked customer sessions) go to its own outbox, relayed in-process.
  const ownerMailbox = new InProcessOwnerMailbox(orm, options.clock, jobs, directory);
  const ownerNotices = new OwnerNoticeRelay(orm, 'billing', options.logger);
  try {
    if (runJobs) await jobs.start(options.databaseUrl);
    if (options.sweepDueWork ?? runJobs) {
      await dueWork.start(options.databaseUrl);
      await partitions.start();
      await rollupBackfill.start();
    }
    if (renewalRetryMs > 0) await renewals.start(options.databaseUrl);
    await ownerNotices.listen(options.databaseUrl);
  } catch (error) {
    await Promise.all([
      jobs.stop(),
      dueWork.stop(),
      partitions.stop(),
      rollupBackfill.stop(),
      renewals.stop(),
      ownerNotices.stop(),
    ]);
    await invalidations.close();
    await ledger?.close();
    await orm.close();
    throw error;
  }
  ownerNotices.start(ownerMailbox);
  const processorEvents = new ProcessorEventHandler(orm, services.clocks, services.processorOutcomes, options.logger);
  services.paymentChallenges = new SandboxChallengeService(
    options.environment === 'sandbox',
    services.payments,
    processorEvents,
    checkoutId => jobs.runNow(fulfilmentJobKey(checkoutId)),
  );
  services.sandboxDisputes = new SandboxDisputeService(
    options.environment === 'sandbox',
    services.payments,
    processorEvents,
    services.disputes,
  );
  return {
    name: BILLING_SUBGRAPH,
    schema,
    orm,
    services,
    principals: new CustomerSessionPrincipalResolver(orm, options.secret, options.clock, cache),
    leakedTokens: new InProcessLeakedCustomerSessionRevoker(orm, options.secret, options.clock, cache, ownerNotices),
    ownerMailbox,
    processorWebhooks: new StripeWebhookReceiver(
      { environment: options.environment, webhookSecret: options.payments?.STRIPE_WEBHOOK_SECRET ?? null },
      processorEvents,
      options.clock,
    ),
    createContext: (principal, requestId) => {
      const em = orm.em.fork();
      return {
        em,
        principal,
        clock: options.clock,
        clockFor: organizationId => services.clocks.clockFor(em, organizationId),
        requestId,
        services,
      };
    },
    jobs,
    dueWork,
    renewals,
    close: async () => {
      await ownerNotices.stop();
      await renewals.stop();
      await dueWork.stop();
      await partitions.stop();
      await rollupBackfill.stop();
      await jobs.stop();
      await invalidations.close();
      await ledger?.close();
      await orm.close();
    },
  };
}
