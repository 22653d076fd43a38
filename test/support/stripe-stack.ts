import type { Clock, ManualClock } from '../../kit/clock.js';
import { FakeStripe } from './fake-stripe.js';
import { FakeStripeJs } from './fake-stripe-js.js';
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

/** A stack taking cards through Stripe.js: the fakes' handles, the production base URL, and its closing. */
export interface StripeJsStack {
  stripe: FakeStripe;
  stripeJs: FakeStripeJs;
  stack: TestStack;
  base: string;
  close(): Promise<void>;
}

/**
 * A test stack whose production environment takes cards as a merchant's does with every Stripe setting:
 * the fake Stripe API (`STRIPE_API_URL`) and the fake Stripe.js (`STRIPE_JS_URL`, fake-stripe-js.ts) on
 * loopback, the fake sending the webhooks of completed or failed next actions to the service, signed with
 * `webhookSecret` at `clock`'s time (the real time without one).
 */
export async function startStripeJsStack(label: string, webhookSecret: string, clock?: Clock): Promise<StripeJsStack> {
  const stripe = new FakeStripe();
  const { host, port } = await stripe.start();
  const apiUrl = `http://${host}:${port}`;
  const stripeJs = new FakeStripeJs(stripe, apiUrl);
  await stripeJs.start();
  const stack = await startTestStack(label, clock, {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripeJs.publishableKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: apiUrl,
    STRIPE_JS_URL: stripeJs.url,
  });
  const base = stack.production.baseUrl;
  stripe.webhookEndpoint = {
    url: `${base}/v1/integrations/stripe/webhook`,
    secret: webhookSecret,
    ...(clock ? { clock: () => clock.now() } : {}),
  };
  const close = async () => {
    await stack.close();
    await stripeJs.stop();
    await stripe.stop();
  };
  return { stripe, stripeJs, stack, base, close };
}
