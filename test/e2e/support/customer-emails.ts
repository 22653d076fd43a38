import type { Clock } from '../../../kit/clock.js';
import { type ReceivedMail, SmtpInbox } from '../../support/smtp-inbox.js';
import { until } from '../../support/until.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../../support/stack.js';

/**
 * The world of the customer e-mail tests (docs/email.md#customer-e-mails): both environments sending
 * through the service's SmtpMailer to a real SMTP server on this machine (smtp-server), messages read back
 * as a mail client reads them (mailparser). The sandbox delivers only to members, `+alias` included, so a
 * merchant's buyers are its owner's aliases.
 */
export class EmailWorld {
  readonly inbox = new SmtpInbox();
  stack!: TestStack;

  async start(label: string, clock?: Clock): Promise<void> {
    const smtp = await this.inbox.start();
    this.stack = await startTestStack(label, clock, { SMTP_URL: smtp, EMAIL_FROM: 'Billing <billing@example.test>' });
  }

  async close(): Promise<void> {
    await this.stack?.close();
    await this.inbox.close();
  }

  get base(): string {
    return this.stack.sandbox.baseUrl;
  }

  async merchant(name?: string): Promise<Merchant> {
    return new Merchant(this, await createTenant(this.stack.sandbox, name ? { name } : {}));
  }

  /** Runs the job queue until a message with this subject reached `to`; answers it. */
  async mail(to: string, subject: string): Promise<ReceivedMail['mail']> {
    const find = () => this.inbox.to(to).find(m => m.mail.subject === subject);
    // Up to a minute, not a number of looks: a retry waits its backoff by the clock, and a busy machine
    // makes each look slower or faster than the backoff's seconds.
    await until(async () => {
      await this.stack.sandbox.environment.billing.jobs.drain();
      return find() !== undefined;
    }, 60_000);
    const received = this.inbox.to(to).map(m => m.mail.subject);
    const kept = (await this.outbox(to)).map(r => [r.kind, r.subject, r.status, r.last_error ?? r.status_reason]);
    if (!find()) throw new Error(`no "${subject}" to ${to}: ${JSON.stringify({ received, kept })}`);
    return find()!.mail;
  }

  /** The outbox rows of an address (what the sandbox mail page lists). */
  async outbox(to: string): Promise<Record<string, any>[]> {
    await this.stack.sandbox.environment.billing.jobs.drain();
    return this.stack.sandbox.environment.billing.orm.em
      .fork()
      .execute('select * from billing.outgoing_emails where to_address = ? order by created_at', [to]);
  }

  /** A link of a plain-text part, on this test's port (an e-mail names the configured public URL). */
  link(text: string | undefined, label: string): string {
    const url = new URL(new RegExp(`(?:${label}): (\\S+)`).exec(text ?? '')?.[1] ?? 'http://none.invalid/');
    return `${this.base}${url.pathname}${url.search}`;
  }
}

/** A seller of the sandbox, acting through the real API with its organization token. */
export class Merchant {
  constructor(
    private readonly world: EmailWorld,
    readonly owner: Tenant,
  ) {}

  api(method: string, path: string, body?: unknown) {
    return call(this.world.base, method, path, { token: this.owner.oat, body });
  }

  /** The owner's `+tag` alias: a member's address, so the sandbox delivers to it. */
  alias(tag: string): string {
    return this.owner.email.replace('@', `+${tag}@`);
  }

  async product(body: Record<string, unknown>): Promise<string> {
    const res = await this.api('POST', '/v1/products/', body);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A checkout confirmed with a test card; answers the checkout. */
  async buy(email: string, product: string, card = 'pm_card_visa'): Promise<Record<string, any>> {
    const checkout = await this.api('POST', '/v1/checkouts/', { products: [product], customer_email: email });
    expect(checkout.status).toBe(201);
    const confirmed = await call(
      this.world.base,
      'POST',
      `/v1/checkouts/client/${checkout.body.client_secret}/confirm`,
      {
        body: { confirmation_token_id: card },
      },
    );
    expect(confirmed.status).toBe(200);
    return checkout.body;
  }

  /** The subscription a checkout sold (once its fulfilment has run). */
  async subscriptionOf(checkout: Record<string, any>): Promise<Record<string, any>> {
    for (let i = 0; i < 200; i++) {
      const list = await this.api('GET', '/v1/subscriptions/?limit=100');
      const found = list.body.items.find((s: any) => s.checkout_id === checkout.id);
      if (found) return found;
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    throw new Error('no subscription');
  }

  async advance(to: Date | string): Promise<void> {
    const iso = typeof to === 'string' ? to : to.toISOString();
    const res = await this.api('POST', '/v1/sandbox/clock/advance', { to: iso });
    expect([res.status, res.body?.now]).toEqual([200, iso]);
  }

  /** Every kind on, but those given (Polar's PATCH takes the whole object). */
  async emailSettings(off: Record<string, boolean>): Promise<void> {
    const kinds = [
      'order_confirmation',
      'subscription_cancellation',
      'subscription_confirmation',
      'subscription_cycled',
    ];
    const rest = ['subscription_past_due', 'subscription_revoked', 'subscription_uncanceled', 'subscription_updated'];
    const settings = Object.fromEntries([...kinds, ...rest].map(k => [k, true]));
    const res = await this.api('PATCH', `/v1/organizations/${this.owner.organizationId}`, {
      customer_email_settings: { ...settings, ...off },
    });
    expect(res.status).toBe(200);
  }
}
