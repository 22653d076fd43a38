import { type EntityManager } from '@mikro-orm/postgresql';
import { checkCustomFieldData } from '../custom-fields/custom-field-data.js';
import { attachedFieldsOf } from '../custom-fields/product-custom-fields.js';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { Customer } from '../customers/customer.entity.js';
import { checkoutEvent } from './checkout.events.js';
import { runWrite } from '../events/run-write.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { PaymentError } from '../payments/payment.errors.js';
import type { ChargeOutcome, SetupOutcome } from '../payments/payment-processor.js';
import type { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { organizationNow } from '../time/organization-clocks.js';
import { metadataIssues } from '../shared/metadata.js';
import { sortCriteria } from '../shared/sorting.js';
import { scopedOrganizationIds, tenantScope } from '../../../kit/database/tenant-scope.js';
import { Checkout } from './checkout.entity.js';
import { CHECKOUT_DEFAULT_SORTING, CHECKOUT_SORT_KEYS } from './checkout.sorting.js';
import { ExpiredCheckoutError, NotOpenCheckout } from './checkout.errors.js';
import type {
  CheckoutClientUpdateInput,
  CheckoutConfirmInput,
  CheckoutCreateInput,
  CheckoutUpdateInput,
} from './checkout.inputs.js';
import { applyClientChanges, invalid, missing, priceCheckout } from './checkout-amounts.js';
import {
  enqueueFulfilment,
  fulfilmentJobKey,
  type FulfilmentPayload,
  processorCall,
  processorCustomerFor,
  recordPayment,
  releaseDiscount,
  reserveDiscount,
  resolveCustomer,
} from './checkout-confirm.js';
import { checkoutRead, type CheckoutReadFilters } from './checkout.read.js';
import { newCheckout } from './new-checkout.js';
import { CheckoutType } from './checkout.type.js';
import { assertTrialAvailable } from './trial-redemptions.js';
import { awaitSettlement } from './checkout-action-settlement.js';
import type { CheckoutDependencies, CheckoutListQuery } from './checkout.dependencies.js';
import { CheckoutRepository } from './checkout.repository.js';
import { CheckoutTax, untaxableIssues, validateCustomerTaxId } from './checkout-tax.js';

/**
 * Checkout sessions (docs/polar/resources.md#checkout): create, read, update (merchant and client), confirm. The
 * confirm charges the card at once (a decline is a 400 and the checkout stays open for another card)
 * and commits `confirmed` with a durable fulfilment job (checkout.fulfilment.ts) that creates the
 * order and the subscription; the job runs right after that commit and again after a crash.
 */
export class CheckoutService {
  private readonly tax: CheckoutTax;

  constructor(private readonly deps: CheckoutDependencies) {
    this.tax = new CheckoutTax(deps.tax ?? null);
  }

  shape(ctx: RequestContext, row: Record<string, unknown>): CheckoutType {
    return CheckoutType.fromRow(row, { now: ctx.clock.now(), publicUrl: this.deps.publicUrl });
  }

  async list(
    ctx: RequestContext,
    query: CheckoutListQuery,
  ): Promise<{ items: CheckoutType[]; pagination: Pagination }> {
    const filters: CheckoutReadFilters = {};
    if (query.productId?.length) filters.productId = query.productId;
    if (query.customerId?.length) filters.customerId = query.customerId;
    if (query.status?.length) filters.status = query.status;
    if (query.query) filters.query = query.query;
    const { rows, total } = await checkoutRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(query.sorting ?? [], CHECKOUT_SORT_KEYS, CHECKOUT_DEFAULT_SORTING),
      pageWindow(query),
      { organizationIds: query.organizationId?.length ? query.organizationId : null },
    );
    return { items: rows.map(r => this.shape(ctx, r)), pagination: paginationOf(total, query.limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<CheckoutType> {
    const row = await checkoutRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return this.shape(ctx, row);
  }

  /** A checkout by its client secret, for anyone holding it (the client endpoints). */
  async clientGet(ctx: RequestContext, clientSecret: string): Promise<CheckoutType> {
    const k = await new CheckoutRepository(ctx.em.fork()).findByClientSecret(clientSecret);
    if (!k) throw new ResourceNotFound();
    return this.readIn(ctx, ctx.em, k);
  }

  /** `POST /v1/checkouts/` (CheckoutProductsCreate). */
  async create(ctx: RequestContext, input: CheckoutCreateInput): Promise<CheckoutType> {
    const issues = [
      ...(input.metadata == null ? [] : metadataIssues(input.metadata)),
      ...(input.customerMetadata == null ? [] : metadataIssues(input.customerMetadata, ['body', 'customer_metadata'])),
    ];
    if (issues.length) throw new PolarRequestValidationError(issues);
    if (!input.products?.length) throw new PolarRequestValidationError([missing('products')]);
    const repository = new ProductRepository(ctx.em);
    const found = scopedOrganizationIds(ctx.principal).length
      ? await repository.findReadableMany(ctx.principal, input.products)
      : [];
    const byId = new Map(found.map(p => [p.id, p]));
    const products = input.products.map(id => byId.get(id));
    const missingAt = products.findIndex(p => !p || p.isArchived);
    if (missingAt >= 0)
      throw new PolarRequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'products', missingAt],
          msg: 'Product does not exist.',
          input: input.products[missingAt],
        },
      ]);
    const organizationId = products[0]!.organizationId;
    if (products.some(p => p!.organizationId !== organizationId))
      throw new PolarRequestValidationError([
        invalid('products', 'Products must belong to the same organization.', input.products),
      ]);
    return this.open(ctx, products as Product[], input, { strict: true });
  }

  /**
   * A new open checkout of `products` (live, of one organization, checked by the caller): the Core
   * API's create, and a checkout link being followed (`strict: false`, so the link's discount is
   * dropped when it no longer applies instead of refusing the buyer). Records `checkout.created`.
   */
  async open(
    ctx: RequestContext,
    products: Product[],
    input: CheckoutCreateInput,
    { strict }: { strict: boolean },
  ): Promise<CheckoutType> {
    const organizationId = products[0]!.organizationId;
    const byId = new Map(products.map(p => [p.id, p]));
    const selected = input.productId ? byId.get(input.productId) : products[0];
    if (!selected)
      throw new PolarRequestValidationError([invalid('product_id', 'Product does not exist.', input.productId)]);
    // The organization's time (its sandbox clock): `expires_at` is 24 hours of that clock.
    const now = await organizationNow(ctx, organizationId);
    // The customer the checkout is for, when known: by id (else 422), or an existing one by external id.
    // Its e-mail and name prefill the form, as Polar's do.
    let customer: Customer | null = null;
    if (input.customerId) {
      customer = await new CheckoutRepository(ctx.em).findLiveCustomer(organizationId, { id: input.customerId });
      if (!customer)
        throw new PolarRequestValidationError([invalid('customer_id', 'Customer does not exist.', input.customerId)]);
    } else if (input.externalCustomerId) {
      customer = await new CheckoutRepository(ctx.em).findLiveCustomer(organizationId, {
        externalId: input.externalCustomerId,
      });
    }
    if (input.subscriptionId) {
      const subscription = await new CheckoutRepository(ctx.em).findSubscriptionOfOrganization(
        input.subscriptionId,
        organizationId,
      );
      if (!subscription)
        throw new PolarRequestValidationError([
          invalid('subscription_id', 'Subscription does not exist.', input.subscriptionId),
        ]);
    }
    // A create has no row to load: the new row, priced, and its event in the frame's transaction.
    return runWrite(ctx.em, async em => {
      const checkout = newCheckout(em, { organizationId, products, selected, customer, input, now });
      // Answers given at create are checked but none is required yet (Polar's); unknown slugs are dropped.
      const answers = checkCustomFieldData(await attachedFieldsOf(em, selected.id), input.customFieldData ?? {}, {
        required: false,
      });
      if (answers.issues.length) throw new PolarRequestValidationError(answers.issues);
      checkout.customFieldData = answers.data;
      const priced = await priceCheckout(
        em,
        checkout,
        selected,
        { amount: input.amount ?? null, discountId: input.discountId ?? null, strict },
        now,
      );
      validateCustomerTaxId(checkout);
      await this.tax.apply(checkout, priced, now);
      await em.flush();
      const shaped = await this.readIn(ctx, em, checkout);
      return { result: shaped, events: [checkoutEvent('checkout.created', organizationId, shaped, now)] };
    });
  }

  /** `PATCH /v1/checkouts/{id}` (the merchant's CheckoutUpdate). */
  async update(ctx: RequestContext, id: string, input: CheckoutUpdateInput): Promise<CheckoutType> {
    // Loaded for write in the read path's scope: another tenant's id is 404, as the get answers.
    const scope = tenantScope(ctx.principal, checkoutRead.definition.readers);
    return this.mutate(
      ctx,
      em => loadForWrite(em, Checkout, id, scope),
      async (em, k, now) => {
        const issues = [
          ...(input.metadata == null ? [] : metadataIssues(input.metadata)),
          ...(input.customerMetadata == null
            ? []
            : metadataIssues(input.customerMetadata, ['body', 'customer_metadata'])),
        ];
        if (issues.length) throw new PolarRequestValidationError(issues);
        if (input.metadata != null) k.metadata = input.metadata as Checkout['metadata'];
        if (input.customerMetadata != null) k.customerMetadata = input.customerMetadata as Checkout['customerMetadata'];
        if (input.allowDiscountCodes != null) k.allowDiscountCodes = input.allowDiscountCodes;
        if (input.requireBillingAddress != null) k.requireBillingAddress = input.requireBillingAddress;
        if (input.trialInterval !== undefined) k.trialInterval = input.trialInterval;
        if (input.trialIntervalCount !== undefined) k.trialIntervalCount = input.trialIntervalCount;
        if (input.customerIpAddress !== undefined) k.customerIpAddress = input.customerIpAddress;
        if (input.successUrl !== undefined) k.successUrl = input.successUrl;
        if (input.returnUrl !== undefined) k.returnUrl = input.returnUrl;
        if (input.embedOrigin !== undefined) k.embedOrigin = input.embedOrigin;
        if (input.currency) k.currency = input.currency.toLowerCase();
        if (input.allowTrial != null) k.allowTrial = input.allowTrial;
        await this.tax.apply(k, await applyClientChanges(em, k, input, now, input.discountId), now);
      },
    );
  }

  /** `PATCH /v1/checkouts/client/{client_secret}` (CheckoutUpdatePublic). */
  async clientUpdate(
    ctx: RequestContext,
    clientSecret: string,
    input: CheckoutClientUpdateInput,
  ): Promise<CheckoutType> {
    return this.mutate(ctx, bySecret(clientSecret), async (em, k, now) => {
      await this.tax.apply(k, await applyClientChanges(em, k, input, now), now);
    });
  }

  /**
   * `POST /v1/checkouts/client/{client_secret}/confirm`. Charges (or, for a trial, saves) the card
   * with a key derived from the checkout and the attempt; a decline is recorded as a failed payment
   * and answered 400 `PaymentError`, the checkout staying open. Success commits `confirmed`, the
   * payment, the customer and the fulfilment job together, runs the job, and answers the checkout as
   * confirmed with a customer session token for the success page. A payment that needs the customer's
   * action (3-D Secure) or that the processor is still processing commits `confirmed` with the payment
   * pending and no job, and answers 200 with `payment_processor_metadata` naming it; the processor's
   * event settles it later.
   */
  async confirm(ctx: RequestContext, clientSecret: string, input: CheckoutConfirmInput): Promise<CheckoutType> {
    // The processor is called while the checkout row is locked: a second confirm waits, then finds it
    // confirmed (403). A crash before the commit leaves the attempt number as it was, so the retry
    // replays the same processor key and gets the first outcome back instead of a second charge.
    let declined: string | null = null;
    let token: string | null = null;
    let checkoutId = '';
    let awaitingAction = false;
    const result = await this.mutate(ctx, bySecret(clientSecret), async (em, k, now) => {
      checkoutId = k.id;
      const taxIssue = await this.tax.apply(k, await applyClientChanges(em, k, input, now), now);
      await em.flush();
      const current = await this.readIn(ctx, em, k);
      const issues: ValidationIssue[] = [];
      if (!k.customerEmail && !k.customerId) issues.push(missing('customer_email'));
      // A seller that collects tax needs an address it can tax (docs/tax.md#checkouts).
      if (taxIssue && current.isPaymentFormRequired) issues.push(...untaxableIssues(taxIssue));
      if (current.isPaymentFormRequired && !input.confirmationTokenId) issues.push(missing('confirmation_token_id'));
      // The product's required custom fields must be answered by now (docs/custom-fields.md#answers).
      const answers = checkCustomFieldData(await attachedFieldsOf(em, k.productId), k.customFieldData, {
        required: true,
      });
      issues.push(...answers.issues);
      if (issues.length) throw new PolarRequestValidationError(issues);
      if (current.trialEnd)
        await assertTrialAvailable(em, this.deps.organizations ?? null, k.organizationId, k.customerEmail);
      const mode: FulfilmentPayload['mode'] = current.isPaymentRequired
        ? 'charge'
        : current.isPaymentFormRequired
          ? 'setup'
          : 'none';
      const attempt = mode === 'none' ? k.paymentAttempts : k.paymentAttempts + 1;
      const payload: FulfilmentPayload = {
        checkoutId: k.id,
        mode,
        attempt,
        token: mode === 'none' ? null : input.confirmationTokenId!,
        processorCustomerId: null,
        amount: current.totalAmount.toString(),
        currency: k.currency,
        saveForLater: !!current.product?.recurringInterval,
      };
      // The discount's redemption is taken before the money moves (a trial's setup redeems nothing).
      const redeemed = k.discountId && mode !== 'setup' ? k.discountId : null;
      if (redeemed) await reserveDiscount(em, redeemed, k.id, now);
      let outcome: ChargeOutcome | SetupOutcome | null = null;
      if (mode !== 'none') {
        const processorCustomer = await processorCustomerFor(this.deps.payments, k, attempt);
        payload.processorCustomerId = processorCustomer.id;
        outcome = await processorCall(this.deps.payments, payload);
        k.paymentAttempts = attempt;
        if (outcome.status === 'failed') {
          // Recorded (Polar lists failed payments too) and committed; the checkout stays open.
          await recordPayment(em, k, payload, outcome, now);
          if (redeemed) await releaseDiscount(em, [k.id]);
          declined = outcome.failure.message;
          return;
        }
      }
      const customer = await resolveCustomer(ctx, em, k, now);
      await em.flush();
      k.customerId = customer.id;
      k.status = 'confirmed';
      if (outcome) await recordPayment(em, k, payload, outcome, now);
      token = (await this.deps.sessions.createFor(em, customer, now)).token;
      if (outcome?.status === 'requires_action' || outcome?.status === 'pending') {
        // 3-D Secure, or a charge still processing: confirmed, the payment pending, no order yet; the
        // processor's event settles it (checkout-action-settlement.ts). Polar's answer: the intent's
        // status and client secret.
        awaitingAction = true;
        awaitSettlement(k, payload, outcome);
        return;
      }
      // Run below, after the commit, before the answer: no other runner takes it meanwhile.
      await enqueueFulfilment(em, payload, now, this.deps.jobs?.worker);
    });
    if (declined !== null) throw new PaymentError(declined);
    if (awaitingAction) return { ...result, customerSessionToken: token };
    // Fulfil now; the worker picks the job up if this process dies first.
    if (this.deps.jobs) await this.deps.jobs.runNow(fulfilmentJobKey(checkoutId));
    return { ...result, customerSessionToken: token };
  }

  /** The checkout row shaped, read through the read path within its own organization (inside `em`'s transaction). */
  private async readIn(ctx: RequestContext, em: EntityManager, k: Checkout): Promise<CheckoutType> {
    const [row] = await checkoutRead.byIdsIn(em, { organizationIds: [k.organizationId], customerId: null }, [k.id]);
    if (!row) throw new ResourceNotFound();
    return this.shape(ctx, row);
  }

  /**
   * One change of an open checkout on the write path (kit/database/write): `load` locks its row in the
   * frame's transaction; refused when not open (403) or expired (410), changed, answered with the new
   * shape, and `checkout.updated` with that shape returned to the frame.
   */
  private async mutate(
    ctx: RequestContext,
    load: (em: EntityManager) => Promise<Checkout>,
    change: (em: EntityManager, k: Checkout, now: Date) => Promise<void>,
  ): Promise<CheckoutType> {
    return runWrite(ctx.em, async em => {
      const k = await load(em);
      const now = this.deps.clocks ? (await this.deps.clocks.clockIn(em, k.organizationId)).now() : ctx.clock.now();
      // Expiry first, as Polar's lookup by client secret: an expired checkout is 410 whatever its status.
      if (k.status === 'expired' || new Date(k.expiresAt) <= now) throw new ExpiredCheckoutError();
      if (k.status !== 'open') throw new NotOpenCheckout(k.id, k.status);
      await change(em, k, now);
      k.modifiedAt = now;
      await em.flush();
      const shaped = await this.readIn(ctx, em, k);
      // A millisecond after the change's other rows (customer.created on confirm), so the outbox's
      // (created_at, id) order is the order Polar sends them in, even under a clock that stands still.
      const at = new Date(now.getTime() + 1);
      return { result: shaped, events: [checkoutEvent('checkout.updated', k.organizationId, shaped, at)] };
    });
  }
}

/**
 * The client endpoints' load: the client secret is the credential (no principal, so no tenant scope),
 * the row locked in the frame's transaction; an unknown secret is 404.
 */
function bySecret(clientSecret: string): (em: EntityManager) => Promise<Checkout> {
  return async em => {
    const k = await new CheckoutRepository(em).findForUpdate({ clientSecret });
    if (!k) throw new ResourceNotFound();
    return k;
  };
}
