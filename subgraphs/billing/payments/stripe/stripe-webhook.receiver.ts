import type { Clock } from '../../../../kit/clock.js';
import { InvalidWebhookSignature } from '../payment.errors.js';
import type { EnvironmentName } from '../../../../kit/config.js';
import type { ProcessorEventHandler } from '../processor-events.js';
import type {
  ProcessorWebhookDelivery,
  ProcessorWebhookResult,
  ProcessorWebhooks,
} from '../../../../kit/processor-webhooks.js';
import { stripeModule } from './stripe-module.js';
import { verifyStripeWebhook } from './stripe-webhooks.js';

/**
 * Billing's end of `POST /v1/integrations/stripe/webhook`: verifies the delivery with the endpoint's
 * signing secret (`STRIPE_WEBHOOK_SECRET`, with the `stripe` package's own check, which needs no API
 * key) and applies what it reports (processor-events.ts). The sandbox, which never charges through
 * Stripe, and a production without the secret answer `not_configured`, naming the setting.
 */
export class StripeWebhookReceiver implements ProcessorWebhooks {
  constructor(
    private readonly settings: { environment: EnvironmentName; webhookSecret: string | null },
    private readonly events: ProcessorEventHandler,
    private readonly clock: Clock,
  ) {}

  async receiveStripe(delivery: ProcessorWebhookDelivery): Promise<ProcessorWebhookResult> {
    if (this.settings.environment === 'sandbox')
      return {
        result: 'not_configured',
        detail: 'The sandbox takes payments with the built-in test processor, never through Stripe.',
      };
    const secret = this.settings.webhookSecret;
    if (!secret)
      return {
        result: 'not_configured',
        detail: "Stripe webhooks are not configured: set STRIPE_WEBHOOK_SECRET to the endpoint's signing secret.",
      };
    let event: ReturnType<typeof verifyStripeWebhook>;
    try {
      event = verifyStripeWebhook(
        stripeModule(),
        typeof delivery?.body === 'string' ? delivery.body : '',
        typeof delivery?.signature === 'string' ? delivery.signature : undefined,
        secret,
        this.clock.now(),
      );
    } catch (error) {
      if (error instanceof InvalidWebhookSignature) return { result: 'invalid_signature', detail: error.message };
      throw error;
    }
    if (!event) return { result: 'ignored' };
    return { result: await this.events.apply(event) };
  }
}
