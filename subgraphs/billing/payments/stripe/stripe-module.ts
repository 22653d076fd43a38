import { createRequire } from 'node:module';
import type Stripe from 'stripe';

const require = createRequire(import.meta.url);
let loaded: typeof Stripe | undefined;

/**
 * The `stripe` package, loaded on first use rather than at start-up: its hundreds of resource modules
 * take memory (6 MB of heap when imported alone) that a deployment without `STRIPE_SECRET_KEY` (and
 * every sandbox, which always uses the test processor) never needs. Synchronous, so the processor is
 * still chosen and built synchronously at start-up when Stripe is configured.
 */
export function stripeModule(): typeof Stripe {
  loaded ??= require('stripe') as typeof Stripe;
  return loaded;
}
