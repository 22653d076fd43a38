/**
 * Idempotency keys for processor calls, derived from what the call is for, so that a retry (after a
 * crash, a timeout, a second delivery of a job) sends the same key and the processor answers with
 * the first outcome instead of acting twice. Polar does the same for its Stripe calls
 * (`order_finalize:{order_id}:{payment_method}`, docs/reliability.md#idempotency-keys). Each attempt that SHOULD be a
 * new charge (a dunning retry) has its own attempt number. Stripe accepts up to 255 characters.
 */
export function idempotencyKey(purpose: IdempotencyPurpose, ...parts: (string | number | bigint)[]): string {
  const key = [purpose, ...parts.map(String)].join(':');
  if (key.length > 255) throw new RangeError('An idempotency key has at most 255 characters');
  return key;
}

export type IdempotencyPurpose =
  | 'customer' // customer:{our customer id}
  | 'setup' // setup:{checkout id or portal request id}
  | 'charge' // charge:{order id}:{attempt}
  | 'refund' // refund:{order id}:{n} (the order's n-th refund)
  | 'cancel'; // cancel:{payment id} (an abandoned 3-D Secure payment given up)
