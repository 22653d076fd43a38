import type Stripe from 'stripe';
import { stripeModule } from './stripe-module.js';

export interface StripeClientOptions {
  secretKey: string;
  /** Only tests set these, to point the client at a loopback server that speaks Stripe's API. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /**
   * Retries of failed requests by the client itself (default 2), with the SAME idempotency key, so a
   * request that timed out is never executed twice by Stripe.
   */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

/** The official client, on the API version the installed package is typed for. */
export function createStripeClient(options: StripeClientOptions): Stripe {
  const StripeClient = stripeModule();
  return new StripeClient(options.secretKey, {
    host: options.host,
    port: options.port,
    protocol: options.protocol,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 30_000,
    telemetry: false,
    appInfo: { name: 'polar-compatible-billing' },
  });
}
