/** Polar's 41 `WebhookEventType`s (docs/polar/webhooks.md): what an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'checkout.created',
  'checkout.updated',
  'checkout.expired',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer.state_changed',
  'customer_seat.assigned',
  'customer_seat.claimed',
  'customer_seat.revoked',
  'member.created',
  'member.updated',
  'member.deleted',
  'order.created',
  'order.updated',
  'order.paid',
  'order.refunded',
  'subscription.created',
  'subscription.updated',
  'subscription.active',
  'subscription.canceled',
  'subscription.uncanceled',
  'subscription.cycled',
  'subscription.revoked',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'refund.created',
  'refund.updated',
  'product.created',
  'product.updated',
  'discount.created',
  'discount.updated',
  'discount.deleted',
  'benefit.created',
  'benefit.updated',
  'benefit_grant.created',
  'benefit_grant.cycled',
  'benefit_grant.updated',
  'benefit_grant.revoked',
  'organization.updated',
] as const;

/** `raw` is the Standard Webhooks JSON envelope; `discord` and `slack` (chat payloads) are refused here. */
export const WEBHOOK_FORMATS = ['raw', 'discord', 'slack'] as const;
export const SUPPORTED_WEBHOOK_FORMATS = ['raw'] as const;

/** `http_code_class` filter of the delivery list. */
export const HTTP_CODE_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
