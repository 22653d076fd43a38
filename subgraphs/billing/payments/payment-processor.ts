import type { ValidationIssue } from '../../../kit/errors.js';

/**
 * What the billing engine needs from a payment processor, and nothing more: a customer to attach
 * payment methods to, saving a method for later (a setup, no money moves), a charge (with a method
 * the customer just entered, or a saved one, off-session for renewals), and a refund.
 *
 * Every call carries an idempotency key that WE generate (`idempotency-key.ts`), derived from what
 * the call is for (the order and the attempt), never random: a retry after a crash or a timeout
 * sends the same key and gets the first outcome back instead of charging twice. Reusing a key for
 * different parameters is refused (`IdempotencyKeyReused`).
 *
 * Expected business outcomes (a declined card) are RETURNED, never thrown, so dunning can record
 * them; errors are thrown for what the caller must not go on with: an unknown payment method (422
 * at its field), a processor that is not configured, or one that could not be reached (retry with
 * the same key).
 */
export interface PaymentProcessor {
  /** `test` (the built-in processor), `stripe`, or `none` when production has none configured. */
  readonly name: ProcessorName;
  createCustomer(input: CreateCustomerInput): Promise<ProcessorCustomer>;
  savePaymentMethod(input: SavePaymentMethodInput): Promise<SetupOutcome>;
  charge(input: ChargeInput): Promise<ChargeOutcome>;
  refund(input: RefundInput): Promise<RefundOutcome>;
  /** Gives up a charge that waits for the customer (an abandoned 3-D Secure), so it can never succeed later. */
  cancel(input: CancelInput): Promise<CancelOutcome>;
  /** A setup as it is now (after the customer's 3-D Secure), or null when the processor knows no such setup. */
  findSetup(setupId: string): Promise<ProcessorSetup | null>;
  /** Concedes a dispute (the merchant accepts the chargeback): the processor settles it as lost. */
  closeDispute(disputeId: string): Promise<Pick<ProcessorDispute, 'disputeId' | 'status'>>;
}

/** `none`: production with no processor configured (every call is refused, see the selection). */
export type ProcessorName = 'test' | 'stripe' | 'none';

/** Where in the caller's request the payment method came from, for a 422 at that field. */
export type FieldLocation = ValidationIssue['loc'];

export interface CreateCustomerInput {
  idempotencyKey: string;
  email: string | null;
  name: string | null;
  /** Our ids, so the processor's dashboard can be traced back (string values only, as at Stripe). */
  metadata?: Record<string, string>;
}

export interface ProcessorCustomer {
  /** The processor's id (`cus_…`). */
  id: string;
}

/**
 * A payment method the customer just entered: Stripe's `confirmation_token_id` from Stripe.js (or a
 * `pm_…` id), or for the test processor one of Stripe's test method names (`pm_card_visa`, …).
 */
export interface NewPaymentMethod {
  kind: 'new';
  token: string;
  /** Where `token` was in the request (default `["body", "confirmation_token_id"]`). */
  field?: FieldLocation;
}

/** A method saved earlier by `savePaymentMethod` (its `id`). */
export interface SavedPaymentMethod {
  kind: 'saved';
  id: string;
  field?: FieldLocation;
}

export interface SavePaymentMethodInput {
  idempotencyKey: string;
  customerId: string;
  paymentMethod: NewPaymentMethod;
  /** Kept on the setup (our `customer_id`: whose it is when the customer confirms it later). */
  metadata?: Record<string, string>;
}

/** A setup read back from the processor (`findSetup`). */
export interface ProcessorSetup {
  setupId: string;
  status: 'succeeded' | 'requires_action' | 'failed';
  /** The processor's customer the method is saved on. */
  processorCustomerId: string | null;
  metadata: Record<string, string>;
  clientSecret: string | null;
  /** The saved method, once it succeeded. */
  paymentMethod: (PaymentMethodDetails & { id: string }) | null;
}

export interface ChargeInput {
  idempotencyKey: string;
  /** Minor units of `currency`, > 0 (a free order is never charged). */
  amount: bigint;
  currency: string;
  /** Required with a saved method; with a new one, given to keep the method for later. */
  customerId: string | null;
  paymentMethod: NewPaymentMethod | SavedPaymentMethod;
  /** Keep a new method on the customer for later charges (a subscription's first payment). */
  saveForLater?: boolean;
  /** The customer is not present (renewals, dunning retries): no authentication can be asked. */
  offSession: boolean;
  description?: string;
  metadata?: Record<string, string>;
}

/** What a card looks like on a receipt and in the portal. */
export interface PaymentMethodDetails {
  /** The processor's id of the saved method (`pm_…`), or null when it was used once and not kept. */
  id: string | null;
  type: 'card';
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** Why a payment or a setup failed, in the processor's words (Stripe's `code`, `decline_code`, `message`). */
export interface PaymentFailure {
  code: string;
  declineCode: string | null;
  message: string;
}

export type ChargeOutcome =
  | {
      status: 'succeeded';
      /** The processor's id of the payment (test: `ch_test_…`; Stripe: the PaymentIntent `pi_…`). */
      chargeId: string;
      amount: bigint;
      currency: string;
      paymentMethod: PaymentMethodDetails;
    }
  | { status: 'failed'; chargeId: string | null; failure: PaymentFailure; paymentMethod: PaymentMethodDetails | null }
  /**
   * Still in flight (Stripe's `processing`: bank debits, some cards): a processor event settles it later.
   * `paymentMethod`: what the processor said of the method, kept for when it settles.
   */
  | { status: 'pending'; chargeId: string; clientSecret: string | null; paymentMethod?: PaymentMethodDetails | null }
  /**
   * The customer must act first (3-D Secure) — only ever on-session; off-session the same charge is a
   * failure with code `authentication_required`. The page completes it with `clientSecret` (Stripe.js
   * `handleNextAction`, or the sandbox's challenge page) and a processor event settles it.
   */
  | { status: 'requires_action'; chargeId: string; clientSecret: string; paymentMethod: PaymentMethodDetails | null };

export type SetupOutcome =
  | { status: 'succeeded'; setupId: string; paymentMethod: PaymentMethodDetails & { id: string } }
  | { status: 'failed'; setupId: string | null; failure: PaymentFailure }
  /** Saving the method needs the customer's action first (3-D Secure); a processor event settles it. */
  | { status: 'requires_action'; setupId: string; clientSecret: string };

export interface CancelInput {
  idempotencyKey: string;
  /** `chargeId` of a charge that answered `requires_action` (or `pending`). */
  chargeId: string;
}

/**
 * What became of the charge: `canceled` (now, or before), or what it had become meanwhile — it
 * `succeeded` (the customer authenticated after all: the money is taken), `failed`, or is still
 * `pending` (a bank debit in flight, which cannot be canceled). Never thrown for these.
 */
export type CancelOutcome =
  | { status: 'canceled' | 'failed' | 'pending'; chargeId: string }
  | { status: 'succeeded'; chargeId: string; amount: bigint; currency: string };

export type RefundReason = 'duplicate' | 'fraudulent' | 'requested_by_customer';

export interface RefundInput {
  idempotencyKey: string;
  /** `chargeId` of a succeeded charge. */
  chargeId: string;
  /** Minor units, > 0, at most what is left to refund of the charge. */
  amount: bigint;
  reason?: RefundReason;
  metadata?: Record<string, string>;
}

export type RefundOutcome =
  | { status: 'succeeded' | 'pending'; refundId: string; amount: bigint; currency: string }
  | { status: 'failed'; refundId: string; amount: bigint; currency: string; failure: PaymentFailure };

/** A dispute as the processor reports it; `status` is already Polar's (docs/disputes.md#statuses). */
export interface ProcessorDispute {
  disputeId: string;
  /** The disputed charge (`chargeId` of the payment). */
  chargeId: string;
  status: 'prevented' | 'early_warning' | 'needs_response' | 'under_review' | 'lost' | 'won';
  /** Minor units, tax included: what the customer's bank took back. */
  amount: bigint;
  currency: string;
  reason: string | null;
  evidenceDueBy: Date | null;
  pastDue: boolean;
}

/**
 * An asynchronous outcome reported by the processor (Stripe's webhooks), in processor-neutral
 * terms. `eventId` is the processor's, unique: consumers record it to handle each event once.
 */
export type ProcessorEvent =
  | {
      type: 'charge.succeeded';
      eventId: string;
      chargeId: string;
      amount: bigint;
      currency: string;
      metadata: Record<string, string>;
    }
  | {
      type: 'charge.failed';
      eventId: string;
      chargeId: string;
      amount: bigint;
      currency: string;
      failure: PaymentFailure;
      metadata: Record<string, string>;
    }
  | {
      type: 'charge.refunded';
      eventId: string;
      chargeId: string;
      /** Everything refunded of the charge so far (not just this refund). */
      amountRefunded: bigint;
      currency: string;
    }
  | {
      /** A setup (a method saved for later) that needed the customer's action has finished. */
      type: 'setup.succeeded' | 'setup.failed';
      eventId: string;
      setupId: string;
      /** The saved method, when it succeeded and the processor says which. */
      paymentMethod: (PaymentMethodDetails & { id: string }) | null;
      failure: PaymentFailure | null;
      metadata: Record<string, string>;
    }
  | {
      /** A refund's status changed (one the processor answered `pending` settles, or a refund fails). */
      type: 'refund.updated';
      eventId: string;
      refundId: string;
      status: 'pending' | 'succeeded' | 'failed' | 'canceled';
      /** The processor's reason when it failed (Stripe's `failure_reason`). */
      failureReason: string | null;
    }
  | ({
      /** A dispute was opened, changed or closed (Stripe's `charge.dispute.*`). */
      type: 'dispute.updated';
      eventId: string;
    } & ProcessorDispute);

/** The field a payment method is reported at when the caller says nothing else. */
export const DEFAULT_PAYMENT_METHOD_FIELD: FieldLocation = ['body', 'confirmation_token_id'];
