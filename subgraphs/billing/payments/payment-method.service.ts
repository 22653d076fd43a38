import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError, ResourceNotFound, Unauthorized } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { PORTAL_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { Customer } from '../customers/customer.entity.js';
import { customerEvent } from '../customers/customer.events.js';
import { runWrite } from '../events/run-write.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import { idempotencyKey } from './idempotency-key.js';
import {
  CustomerNotReady,
  PaymentMethodInUseByActiveSubscription,
  PaymentMethodSetupFailed,
} from './payment.errors.js';
import { customerPaymentMethodRead, paymentMethodRead } from './payment-method.read.js';
import { CustomerPaymentMethodType, type CustomerPaymentMethodCreateResultType } from './payment-method.type.js';
import type { PaymentMethodDetails, PaymentProcessor } from './payment-processor.js';
import { SavedPaymentMethod } from './saved-payment-method.entity.js';
import { SavedPaymentMethodRepository } from './saved-payment-method.repository.js';
import {
  hasSubscriptionRequiringPaymentMethod,
  keepPaymentMethod,
  knownProcessorCustomer,
} from './saved-payment-methods.js';

export interface PaymentMethodAddInput {
  confirmationTokenId: string;
  setDefault: boolean;
  returnUrl: string;
}

const digest = (...parts: (string | null)[]): string =>
  createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

/**
 * The Customer Portal's saved payment methods (Polar's `/v1/customer-portal/customers/me/payment-methods`):
 * list, add through the processor's setup (no money moves), delete. The default is the customer's
 * `defaultPaymentMethodId`, what renewals charge (saved-payment-methods.ts). Changes of the default
 * record `customer.updated`, as Polar's do. Writes run on billing's write frame: the customer's own row
 * is loaded for write (a customer session changes itself only), and the event is returned to the frame.
 */
export class PaymentMethodService {
  constructor(
    private readonly payments: PaymentProcessor,
    private readonly clocks: OrganizationClocks,
  ) {}

  async list(
    ctx: RequestContext,
    query: { page: number; limit: number },
  ): Promise<{ items: CustomerPaymentMethodType[]; pagination: Pagination }> {
    const { rows, total } = await paymentMethodRead.page(
      ctx.em,
      ctx.principal,
      {},
      [{ key: 'created_at', direction: 'desc' }],
      pageWindow(query),
    );
    return { items: rows.map(CustomerPaymentMethodType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  /** The merchant's view of one customer's saved methods; the customer was found readable by the caller. */
  async listOfCustomer(
    ctx: RequestContext,
    customerId: string,
    query: { page: number; limit: number },
  ): Promise<{ items: CustomerPaymentMethodType[]; pagination: Pagination }> {
    const { rows, total } = await customerPaymentMethodRead.page(
      ctx.em,
      ctx.principal,
      { customerId: [customerId] },
      [{ key: 'created_at', direction: 'desc' }],
      pageWindow(query),
    );
    return { items: rows.map(CustomerPaymentMethodType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  /**
   * Saves the method behind the confirmation token (Stripe's confirmation token; the test processor's
   * `pm_card_…` names) for the signed-in customer. A decline is 400 `PaymentMethodSetupFailed` and
   * saves nothing; an unknown token is 422 at `confirmation_token_id`. The customer's row is locked
   * while the processor is called, so two adds (or an add and a delete) of one customer run in turn.
   */
  async add(ctx: RequestContext, input: PaymentMethodAddInput): Promise<CustomerPaymentMethodCreateResultType> {
    const customerId = this.customerOf(ctx);
    return runWrite<CustomerPaymentMethodCreateResultType>(ctx.em, async em => {
      const customer = await this.lockCustomer(em, ctx, customerId);
      const now = (await this.clocks.clockIn(em, customer.organizationId)).now();
      const events: OutboxEvent[] = [];
      const processorCustomerId =
        (await knownProcessorCustomer(em, customer.id, this.payments.name)) ??
        (
          await this.payments.createCustomer({
            // Keyed by what it is created with: the same customer and details give the same processor customer.
            idempotencyKey: idempotencyKey('customer', 'customer', customer.id, digest(customer.email, customer.name)),
            email: customer.email,
            name: customer.name,
            metadata: { customer_id: customer.id, organization_id: customer.organizationId },
          })
        ).id;
      const outcome = await this.payments.savePaymentMethod({
        // One token is one setup: a retry of the same request gets the first outcome back.
        idempotencyKey: idempotencyKey(
          'setup',
          'portal',
          customer.id,
          digest(input.confirmationTokenId, processorCustomerId),
        ),
        customerId: processorCustomerId,
        paymentMethod: { kind: 'new', token: input.confirmationTokenId },
        // Whose setup it is, when the customer confirms it after 3-D Secure (`confirm`).
        metadata: { customer_id: customer.id, organization_id: customer.organizationId },
      });
      if (outcome.status === 'failed') throw new PaymentMethodSetupFailed(outcome.failure.message);
      // 3-D Secure on saving: Polar's requires-action answer; `confirm` keeps the method afterwards.
      if (outcome.status === 'requires_action')
        return {
          result: { status: 'requires_action', paymentMethod: null, clientSecret: outcome.clientSecret },
          events,
        };
      return this.keep(ctx, em, customer, processorCustomerId, outcome.paymentMethod, input.setDefault, now);
    });
  }

  /**
   * Polar's `POST /v1/customer-portal/customers/me/payment-methods/confirm`: the setup `add` answered
   * `requires_action` for, read back from the processor once the customer authenticated. Succeeded →
   * the method is kept (and made the default if asked, or when there is none), 201 as `add` answers;
   * still waiting → `requires_action` again. A setup that is not this customer's, unknown, or failed
   * is 422 at `setup_intent_id`; a customer who never started one with the processor is 403
   * `CustomerNotReady`.
   */
  async confirm(
    ctx: RequestContext,
    input: { setupIntentId: string; setDefault: boolean },
  ): Promise<CustomerPaymentMethodCreateResultType> {
    const customerId = this.customerOf(ctx);
    return runWrite<CustomerPaymentMethodCreateResultType>(ctx.em, async em => {
      const customer = await this.lockCustomer(em, ctx, customerId);
      const now = (await this.clocks.clockIn(em, customer.organizationId)).now();
      const setup = await this.payments.findSetup(input.setupIntentId);
      const ours = setup?.metadata.customer_id === customer.id && setup.processorCustomerId !== null;
      if (!ours && !(await knownProcessorCustomer(em, customer.id, this.payments.name))) throw new CustomerNotReady();
      if (!ours || setup.status === 'failed') throw invalidSetup(input.setupIntentId);
      if (setup.status === 'requires_action')
        return {
          result: { status: 'requires_action', paymentMethod: null, clientSecret: setup.clientSecret },
          events: [],
        };
      if (!setup.paymentMethod) throw invalidSetup(input.setupIntentId);
      return this.keep(ctx, em, customer, setup.processorCustomerId!, setup.paymentMethod, input.setDefault, now);
    });
  }

  /** Keeps a method the processor saved on the customer; the default when asked, or when there is none. */
  private async keep(
    ctx: RequestContext,
    em: EntityManager,
    customer: Customer,
    processorCustomerId: string,
    method: PaymentMethodDetails & { id: string },
    setDefault: boolean,
    now: Date,
  ): Promise<{ result: CustomerPaymentMethodCreateResultType; events: OutboxEvent[] }> {
    const events: OutboxEvent[] = [];
    const saved = await keepPaymentMethod(em, customer, {
      processor: this.payments.name,
      processorCustomerId,
      method,
      now,
    });
    if (setDefault || !customer.defaultPaymentMethodId) {
      const changed = customer.defaultPaymentMethodId !== saved.id;
      customer.defaultPaymentMethodId = saved.id;
      if (changed) {
        customer.modifiedAt = now;
        events.push(customerEvent('customer.updated', customer, ctx.clock.now()));
      }
    }
    return {
      result: {
        status: 'succeeded',
        paymentMethod: CustomerPaymentMethodType.from(saved, customer.defaultPaymentMethodId === saved.id),
        clientSecret: null,
      },
      events,
    };
  }

  /**
   * Removes one of the customer's methods (soft). When it was the default, the newest other method
   * becomes the default (Polar moves the subscriptions it billed to that one); when there is no other
   * and a subscription still has to be billed, 400 `PaymentMethodInUseByActiveSubscription`. The method
   * is loaded for write among the customer's own live ones (another customer's is a 404).
   */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    const customerId = this.customerOf(ctx);
    await runWrite(ctx.em, async em => {
      const customer = await this.lockCustomer(em, ctx, customerId);
      const methods = new SavedPaymentMethodRepository(em);
      const method = await loadForWrite(em, SavedPaymentMethod, id, tenantScope(ctx.principal, PORTAL_READERS), {
        tenant: { customer: 'customerId' },
        where: { deletedAt: null },
      });
      const now = (await this.clocks.clockIn(em, customer.organizationId)).now();
      const alternative = await methods.findNewestLiveExcept(customer.id, method.id);
      if (!alternative && (await hasSubscriptionRequiringPaymentMethod(em, customer.id)))
        throw new PaymentMethodInUseByActiveSubscription();
      method.deletedAt = now;
      method.modifiedAt = now;
      if (customer.defaultPaymentMethodId === method.id) customer.defaultPaymentMethodId = alternative?.id ?? null;
      customer.modifiedAt = now;
      return { result: undefined, events: [customerEvent('customer.updated', customer, ctx.clock.now())] };
    });
  }

  private customerOf(ctx: RequestContext): string {
    if (ctx.principal.subject !== 'customer' || !ctx.principal.subjectId) throw new Unauthorized();
    return ctx.principal.subjectId;
  }

  /**
   * The signed-in customer's own live row, loaded for write (two adds, or an add and a delete, of one
   * customer take turns). A session whose customer is gone is 401, as Polar answers it, not a 404.
   */
  private async lockCustomer(em: EntityManager, ctx: RequestContext, id: string): Promise<Customer> {
    try {
      return await loadForWrite(em, Customer, id, tenantScope(ctx.principal, PORTAL_READERS), {
        tenant: { customer: 'id' },
        where: { deletedAt: null },
      });
    } catch (error) {
      if (error instanceof ResourceNotFound) throw new Unauthorized();
      throw error;
    }
  }
}

/** Polar's answer to a setup that cannot be confirmed (unknown, another customer's, or failed). */
function invalidSetup(setupIntentId: string): PolarRequestValidationError {
  return new PolarRequestValidationError([
    { type: 'invalid', loc: ['body', 'setup_intent_id'], msg: 'Invalid setup_intent_id.', input: setupIntentId },
  ]);
}
