import { expect } from '@jest/globals';
import type { ManualClock } from '../../kit/clock.js';
import { FakeStripe } from './fake-stripe.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from './stack.js';

/**
 * A test stack whose production environment charges through Stripe, the fake on loopback
 * (`STRIPE_API_URL`, fake-stripe.ts), with Stripe's webhooks signed by `webhookSecret`, one merchant, and
 * the calls the Stripe end-to-end tests share. Time is the given manual clock.
 */
export class StripeStack {
  readonly stripe = new FakeStripe();
  stack!: TestStack;
  owner!: Tenant;
  base!: string;

  constructor(
    private readonly webhookSecret: string,
    private readonly wall: ManualClock,
  ) {}

  /** Starts the fake and the stack; `env` adds to the service's configuration. */
  async start(label: string, env: Record<string, string> = {}): Promise<this> {
    const { host, port } = await this.stripe.start();
    this.stack = await startTestStack(label, this.wall, {
      STRIPE_SECRET_KEY: this.stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_URL: `http://${host}:${port}`,
      ...env,
    });
    this.base = this.stack.production.baseUrl;
    this.owner = await createTenant(this.stack.production);
    return this;
  }

  async close(): Promise<void> {
    await this.stack?.close();
    await this.stripe.stop();
  }

  /** The merchant's API, with its organization token. */
  readonly api = (method: string, path: string, body?: unknown) =>
    call(this.base, method, path, { token: this.owner.oat, body });

  /** Posts a Stripe event signed with the endpoint's secret (or the one given) at the service's time. */
  readonly deliver = (event: Record<string, unknown>, secret = this.webhookSecret) => {
    const { payload, header } = FakeStripe.signedEvent(event, secret, this.wall.now());
    return call(this.base, 'POST', '/v1/integrations/stripe/webhook', {
      rawBody: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
  };

  /** A product named "Plan" with the given fields; answers its id. */
  readonly product = async (body: Record<string, unknown>): Promise<string> => {
    const res = await this.api('POST', '/v1/products/', { name: 'Plan', ...body });
    expect(res.status).toBe(201);
    return res.body.id;
  };
}
