import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Address } from '../customers/customer.entity.js';
import type { TaxBehavior, TaxBreakdownItem, TaxEvidence, TaxId, VatIdCheck } from '../tax/tax.contract.js';

export type CheckoutStatus = 'open' | 'expired' | 'confirmed' | 'succeeded' | 'failed';

/**
 * A checkout session (docs/polar/resources.md#checkout): what a customer is about to buy, at which price, with
 * which discount, and who they are. `open → confirmed → succeeded | failed`, `expired` after
 * `expiresAt`. Amounts are minor units; `amount` is the price before discount (the seat total for
 * seat-based prices, the customer's choice for pay-what-you-want).
 */
@Entity({ tableName: 'checkouts', schema: 'billing' })
export class Checkout {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) clientSecret!: string;
  @Property({ type: 'text' }) status: CheckoutStatus = 'open';
  @Property({ type: 'uuid[]' }) productIds: string[] = [];
  @Property({ type: 'uuid' }) productId!: string;
  @Property({ type: 'uuid' }) productPriceId!: string;
  @Property({ type: 'json', nullable: true }) adHocPrices: Record<string, unknown> | null = null;
  @Property({ type: 'uuid', nullable: true }) discountId: string | null = null;
  @Property({ type: 'boolean' }) allowDiscountCodes = true;
  @Property({ type: 'boolean' }) requireBillingAddress = false;
  @Property({ type: 'bigint' }) amount: bigint = 0n;
  @Property({ type: 'integer', nullable: true }) seats: number | null = null;
  @Property({ type: 'integer', nullable: true }) minSeats: number | null = null;
  @Property({ type: 'integer', nullable: true }) maxSeats: number | null = null;
  @Property({ type: 'text' }) currency = 'usd';
  @Property({ type: 'bigint' }) discountAmount: bigint = 0n;
  /** Null until it can be computed: a seller who collects tax needs the buyer's address (docs/tax.md#checkouts). */
  @Property({ type: 'bigint', nullable: true }) taxAmount: bigint | null = null;
  /** What `location` resolved to (or the price's own behaviour); null until tax is computed. */
  @Property({ type: 'text', nullable: true }) taxBehavior: TaxBehavior | null = null;
  @Property({ type: 'json' }) taxBreakdown: TaxBreakdownItem[] = [];
  /** The computation's evidence, copied to the order the checkout makes. */
  @Property({ type: 'json', nullable: true }) taxEvidence: TaxEvidence | null = null;
  @Property({ type: 'boolean' }) allowTrial = true;
  @Property({ type: 'text', nullable: true }) trialInterval: string | null = null;
  @Property({ type: 'integer', nullable: true }) trialIntervalCount: number | null = null;
  @Property({ type: 'uuid', nullable: true }) customerId: string | null = null;
  @Property({ type: 'text', nullable: true }) externalCustomerId: string | null = null;
  @Property({ type: 'boolean' }) isBusinessCustomer = false;
  @Property({ type: 'text', nullable: true }) customerName: string | null = null;
  @Property({ type: 'text', nullable: true }) customerEmail: string | null = null;
  @Property({ type: 'text', nullable: true }) customerIpAddress: string | null = null;
  @Property({ type: 'text', nullable: true }) customerBillingName: string | null = null;
  @Property({ type: 'json', nullable: true }) customerBillingAddress: Address | null = null;
  /** The buyer's tax id, normalised (`FR61954506077`); its format follows the billing address country. */
  @Property({ type: 'text', nullable: true }) customerTaxId: string | null = null;
  /** The VAT-id check of `customerTaxId` (VIES or the sandbox's test ids), kept so the confirm does not ask again. */
  @Property({ type: 'json', nullable: true }) customerTaxIdCheck: { tax_id: TaxId; check: VatIdCheck } | null = null;
  @Property({ type: 'json' }) customerMetadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'json' }) customFieldData: Record<string, unknown> = {};
  @Property({ type: 'uuid', nullable: true }) subscriptionId: string | null = null;
  @Property({ type: 'text', nullable: true }) successUrl: string | null = null;
  @Property({ type: 'text', nullable: true }) returnUrl: string | null = null;
  @Property({ type: 'text', nullable: true }) embedOrigin: string | null = null;
  @Property({ type: 'text', nullable: true }) locale: string | null = null;
  /** Confirm attempts that reached the processor: each is its own idempotency key (a new card, a new charge). */
  @Property({ type: 'integer' }) paymentAttempts = 0;
  /** Polar's: `intent_status` and `intent_client_secret` of a confirm whose payment waits for the customer's action. */
  @Property({ type: 'json' }) paymentProcessorMetadata: Record<string, string> = {};
  /** The processor's charge or setup a confirmed checkout waits for (3-D Secure), until its event settles it. */
  @Property({ type: 'text', nullable: true }) pendingIntentId: string | null = null;
  /** The fulfilment job's payload, enqueued when that event says the payment succeeded. */
  @Property({ type: 'json', nullable: true }) pendingFulfilment: Record<string, unknown> | null = null;
  @Property({ type: 'timestamptz' }) expiresAt!: Date;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
