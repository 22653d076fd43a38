import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChargeOutcome, SetupOutcome } from '../payments/payment-processor.js';
import type { CheckoutOutcomeHandler, SettledCharge, SetupEvent } from '../payments/processor-outcome-handlers.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import type { Checkout } from './checkout.entity.js';
import { recordCheckoutEvent } from './checkout.events.js';
import { checkoutRead } from './checkout.read.js';
import { CheckoutRepository } from './checkout.repository.js';
import { CheckoutType } from './checkout.type.js';
import { enqueueFulfilment, type FulfilmentPayload, releaseDiscount } from './checkout-confirm.js';

/** Polar's keys in `payment_processor_metadata` for a payment that waits for the customer. */
const INTENT_KEYS = ['intent_status', 'intent_client_secret'];

/**
 * A confirm whose charge (or a trial's setup) the processor did not settle at once: `requires_action`
 * (3-D Secure) or, for a charge, `processing` (the processor's `pending`). As Polar's confirm, the
 * checkout is committed `confirmed` with the intent's `intent_status` / `intent_client_secret`, the
 * intent it waits for and the fulfilment payload to run once the processor's event settles it.
 */
export function awaitSettlement(
  k: Checkout,
  payload: FulfilmentPayload,
  outcome: Extract<ChargeOutcome | SetupOutcome, { status: 'requires_action' | 'pending' }>,
): void {
  k.paymentProcessorMetadata = {
    ...k.paymentProcessorMetadata,
    intent_status: outcome.status === 'pending' ? 'processing' : 'requires_action',
    ...(outcome.clientSecret ? { intent_client_secret: outcome.clientSecret } : {}),
  };
  k.pendingIntentId = 'chargeId' in outcome ? outcome.chargeId : outcome.setupId;
  const method = 'paymentMethod' in outcome ? (outcome.paymentMethod ?? null) : null;
  k.pendingFulfilment = { ...payload, settled: { paymentMethod: method } };
}

/**
 * The processor's word on a checkout's payment that waited for the customer (processor-events.ts calls
 * it, once per event, with the checkout locked before the payment, as the confirm locks them):
 * - succeeded: the fulfilment job is enqueued with the payload the confirm kept, so the order, the
 *   subscription and the benefits come exactly as from an immediate success (checkout.fulfilment.ts);
 * - failed: as Polar's handle_failure, the checkout is `open` again for another card, its intent keys
 *   dropped, its discount redemption given back, `checkout.updated` recorded; the payment row (settled
 *   by the caller) says why. No order, nothing charged.
 * A checkout no longer waiting (settled by an earlier event, expired) is left as it is.
 */
export class CheckoutActionSettlement implements CheckoutOutcomeHandler {
  constructor(private readonly publicUrl: string) {}

  async prepareCharge(em: EntityManager, checkoutId: string) {
    const k = await new CheckoutRepository(em).findForUpdate({ id: checkoutId });
    if (k?.status !== 'confirmed' || !k.pendingFulfilment) return null;
    return ({ outcome, now }: SettledCharge) =>
      outcome.status === 'succeeded' ? this.fulfil(em, k, now, null) : this.reopen(em, k, now);
  }

  async settleSetup(em: EntityManager, event: SetupEvent, clocks: OrganizationClocks) {
    const k = await new CheckoutRepository(em).findForUpdate({ pendingIntentId: event.setupId });
    if (k?.status !== 'confirmed' || !k.pendingFulfilment) return 'ignored';
    const now = (await clocks.clockIn(em, k.organizationId)).now();
    if (event.type === 'setup.succeeded') await this.fulfil(em, k, now, event.paymentMethod);
    else await this.reopen(em, k, now);
    return 'handled';
  }

  private async fulfil(
    em: EntityManager,
    k: Checkout,
    now: Date,
    method: NonNullable<FulfilmentPayload['settled']>['paymentMethod'],
  ): Promise<void> {
    const kept = k.pendingFulfilment as unknown as FulfilmentPayload;
    const payload: FulfilmentPayload = {
      ...kept,
      settled: { paymentMethod: method ?? kept.settled?.paymentMethod ?? null },
    };
    k.paymentProcessorMetadata = { ...k.paymentProcessorMetadata, intent_status: 'succeeded' };
    k.pendingIntentId = null;
    k.pendingFulfilment = null;
    await em.flush();
    await enqueueFulfilment(em, payload, now);
  }

  private async reopen(em: EntityManager, k: Checkout, now: Date): Promise<void> {
    k.status = 'open';
    k.paymentProcessorMetadata = Object.fromEntries(
      Object.entries(k.paymentProcessorMetadata ?? {}).filter(([key]) => !INTENT_KEYS.includes(key)),
    );
    k.pendingIntentId = null;
    k.pendingFulfilment = null;
    k.modifiedAt = now;
    await em.flush();
    await releaseDiscount(em, [k.id]);
    const [row] = await checkoutRead.byIdsIn(em, { organizationIds: [k.organizationId], customerId: null }, [k.id]);
    recordCheckoutEvent(
      em,
      k.organizationId,
      'checkout.updated',
      CheckoutType.fromRow(row!, { now, publicUrl: this.publicUrl }),
      now,
    );
    await em.flush();
  }
}
