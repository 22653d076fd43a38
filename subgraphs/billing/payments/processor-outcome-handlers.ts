import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../orders/order.entity.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import type { ChargeOutcome, ProcessorEvent } from './payment-processor.js';

/** A pending charge's outcome, once its payment row is settled. */
export interface SettledCharge {
  outcome: ChargeOutcome;
  /** The payment's processor key: which attempt it was (processor-events.ts `attemptOf`). */
  idempotencyKey: string;
  now: Date;
}

/**
 * What a charge's outcome means beyond its payment row, for the folder that made the charge (the
 * subscriptions' renewals and dunning register theirs at composition, services.ts): payments only
 * settle payments, and import nothing of what they pay for.
 */
export interface ChargeOutcomeHandler {
  /**
   * Called with the charge's order locked, before the payment row is: takes the locks the settlement
   * needs (in the order the synchronous paths take them) and returns the settlement, or null when the
   * charge is not this handler's.
   */
  prepare(em: EntityManager, order: Order): Promise<((charge: SettledCharge) => Promise<void>) | null>;
}

export type RefundEvent = Extract<ProcessorEvent, { type: 'refund.updated' }>;
export type DisputeEvent = Extract<ProcessorEvent, { type: 'dispute.updated' }>;
export type SetupEvent = Extract<ProcessorEvent, { type: 'setup.succeeded' | 'setup.failed' }>;

/**
 * A checkout whose confirm waits for the customer's action (3-D Secure) — the checkouts register theirs
 * (services.ts). `prepareCharge` is called for a pending payment of a checkout, before the payment row
 * is locked (it locks the checkout, as the confirm does, first); `settleSetup` for a setup's event.
 */
export interface CheckoutOutcomeHandler {
  prepareCharge(em: EntityManager, checkoutId: string): Promise<((charge: SettledCharge) => Promise<void>) | null>;
  settleSetup(em: EntityManager, event: SetupEvent, clocks: OrganizationClocks): Promise<'handled' | 'ignored'>;
}

/** Settles a refund the processor answered asynchronously (the refunds register theirs, services.ts). */
export interface RefundOutcomeHandler {
  settle(em: EntityManager, event: RefundEvent, clocks: OrganizationClocks): Promise<'handled' | 'ignored'>;
}

/** Records a dispute the processor opened or changed (the disputes register theirs, services.ts). */
export interface DisputeOutcomeHandler {
  settle(em: EntityManager, event: DisputeEvent, clocks: OrganizationClocks): Promise<'handled' | 'ignored'>;
}

/**
 * The registry the processor's events are handed to (processor-events.ts). Composition fills it; an
 * outcome nobody registered for is acknowledged and changes nothing beyond the payment.
 */
export class ProcessorOutcomeHandlers {
  private readonly charges: ChargeOutcomeHandler[] = [];
  private refunds: RefundOutcomeHandler | null = null;
  private checkouts: CheckoutOutcomeHandler | null = null;
  private disputes: DisputeOutcomeHandler | null = null;

  onCharge(handler: ChargeOutcomeHandler): this {
    this.charges.push(handler);
    return this;
  }

  onRefund(handler: RefundOutcomeHandler): this {
    this.refunds = handler;
    return this;
  }

  onDispute(handler: DisputeOutcomeHandler): this {
    this.disputes = handler;
    return this;
  }

  onCheckout(handler: CheckoutOutcomeHandler): this {
    this.checkouts = handler;
    return this;
  }

  prepareCheckoutCharge(
    em: EntityManager,
    checkoutId: string,
  ): Promise<((charge: SettledCharge) => Promise<void>) | null> {
    return this.checkouts ? this.checkouts.prepareCharge(em, checkoutId) : Promise.resolve(null);
  }

  settleSetup(em: EntityManager, event: SetupEvent, clocks: OrganizationClocks): Promise<'handled' | 'ignored'> {
    return this.checkouts ? this.checkouts.settleSetup(em, event, clocks) : Promise.resolve('ignored');
  }

  async prepareCharge(em: EntityManager, order: Order): Promise<((charge: SettledCharge) => Promise<void>) | null> {
    for (const handler of this.charges) {
      const settle = await handler.prepare(em, order);
      if (settle) return settle;
    }
    return null;
  }

  settleRefund(em: EntityManager, event: RefundEvent, clocks: OrganizationClocks): Promise<'handled' | 'ignored'> {
    return this.refunds ? this.refunds.settle(em, event, clocks) : Promise.resolve('ignored');
  }

  settleDispute(em: EntityManager, event: DisputeEvent, clocks: OrganizationClocks): Promise<'handled' | 'ignored'> {
    return this.disputes ? this.disputes.settle(em, event, clocks) : Promise.resolve('ignored');
  }
}
