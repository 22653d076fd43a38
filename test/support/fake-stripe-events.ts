import { createHmac } from 'node:crypto';
import { id, type Json } from './fake-stripe-wire.js';

/** A Stripe event (`evt_…`) about `object`, as Stripe sends it to a webhook endpoint. */
export function stripeEvent(type: string, object: Json, at = new Date()): Json {
  return {
    id: `evt_${id()}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(at.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** A Stripe event body and its `Stripe-Signature` header, signed as Stripe signs (t=…,v1=HMAC-SHA256). */
export function signedStripeEvent(event: Json, secret: string, at: Date): { payload: string; header: string } {
  const payload = JSON.stringify(event, null, 2);
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex');
  return { payload, header: `t=${t},v1=${v1}` };
}
