/**
 * Which outbox event tells a customer what (docs/email.md#customer-e-mails): Polar's choice of e-mail per
 * change (its order and subscription services), as a pure function of the event; the organization's
 * `customer_email_settings` (`kindIsOn`) are applied where the e-mail is written (customer-email.job.ts,
 * customer-email-reminders.ts). At most one e-mail per event; the reminders are due work
 * (customer-email-reminders.ts), not events.
 */
export const CUSTOMER_EMAIL_KINDS = [
  'order_confirmation',
  'subscription_confirmation',
  'subscription_cycled',
  'subscription_cycled_after_trial',
  'subscription_updated',
  'subscription_cancellation',
  'subscription_uncanceled',
  'subscription_revoked',
  'subscription_paused',
  'subscription_resumed',
  'subscription_past_due',
  'subscription_renewal_reminder',
  'subscription_trial_conversion_reminder',
  'payment_method_expiration_reminder',
] as const;
export type CustomerEmailKind = (typeof CUSTOMER_EMAIL_KINDS)[number];

/** The kinds an organization switched on (a key it never stored reads as on, as Polar). */
export type CustomerEmailSwitches = Partial<Record<string, boolean>>;
export const kindIsOn = (switches: CustomerEmailSwitches, kind: CustomerEmailKind) => switches[kind] !== false;

type Payload = Record<string, any>;

/** The event types the policy reads (the recorder looks no further for any other). */
export const CUSTOMER_EMAIL_EVENT_TYPES = new Set([
  'order.paid',
  'subscription.updated',
  'subscription.canceled',
  'subscription.uncanceled',
  'subscription.revoked',
  'subscription.paused',
  'subscription.resumed',
  'subscription.past_due',
]);

/** The order's billing reason → its e-mail (Polar's `send_confirmation_email`). */
const ORDER_KINDS: Record<string, CustomerEmailKind> = {
  purchase: 'order_confirmation',
  subscription_create: 'subscription_confirmation',
  subscription_cycle: 'subscription_cycled',
  subscription_cycle_after_trial: 'subscription_cycled_after_trial',
  subscription_update: 'subscription_updated',
};

const SUBSCRIPTION_KINDS: Record<string, CustomerEmailKind> = {
  'subscription.canceled': 'subscription_cancellation',
  'subscription.uncanceled': 'subscription_uncanceled',
  'subscription.revoked': 'subscription_revoked',
  'subscription.paused': 'subscription_paused',
  'subscription.resumed': 'subscription_resumed',
  'subscription.past_due': 'subscription_past_due',
};

/**
 * The first renewal after a trial (Polar's internal `subscription_cycle_after_trial`; on the wire both are
 * `subscription_cycle`): the period it bills starts where the trial ended.
 */
function afterTrial(order: Payload): boolean {
  const s = order.subscription;
  return order.billing_reason === 'subscription_cycle' && !!s?.trial_end && s.current_period_start === s.trial_end;
}

/**
 * The e-mail one event calls for, or null. `planChanged`: the change that recorded a
 * `subscription.updated` moved the subscription to another product without invoicing it now (an
 * invoiced change is told by its order's `order.paid`, as Polar).
 */
export function customerEmailFor(type: string, payload: Payload, planChanged: boolean): CustomerEmailKind | null {
  if (type === 'order.paid') {
    const kind = afterTrial(payload)
      ? 'subscription_cycled_after_trial'
      : (ORDER_KINDS[String(payload.billing_reason)] ?? null);
    // Polar tells no one of a free renewal.
    const renewal = kind === 'subscription_cycled' || kind === 'subscription_cycled_after_trial';
    return renewal && Number(payload.total_amount ?? 0) === 0 ? null : kind;
  }
  if (type === 'subscription.updated') return planChanged ? 'subscription_updated' : null;
  const kind = SUBSCRIPTION_KINDS[type] ?? null;
  // Revoked at once: the revocation's own e-mail says it, not a cancellation's.
  if (kind === 'subscription_cancellation' && payload.status === 'canceled') return null;
  // The end of dunning: the past-due e-mail said it already.
  if (kind === 'subscription_revoked' && payload.past_due_at) return null;
  return kind;
}
