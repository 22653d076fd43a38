import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CARDS, type Card, cardError, generic } from './fake-stripe-cards.js';
import { actionAnswer, cancelAnswer, requiresAuthentication, THREE_D_SECURE_CARDS } from './fake-stripe-3ds.js';
import { stripeJsRequest, type WebhookEndpoint } from './fake-stripe-confirmation-tokens.js';
import { closeDisputeAnswer } from './fake-stripe-disputes.js';
import { signedStripeEvent, stripeEvent } from './fake-stripe-events.js';
import type { FakeStripeTax } from './fake-stripe-tax.js';
import { expands, header, id, type Json, missing, notFound, now, parseForm, publicOf } from './fake-stripe-wire.js';

/**
 * A loopback HTTP server that speaks the few Stripe API endpoints our Stripe processor calls
 * (POST /v1/customers, /v1/setup_intents, /v1/payment_intents, /v1/refunds), with the bodies Stripe
 * documents: objects, `card_error` 402s with `code`/`decline_code`/`payment_intent`, `resource_missing`
 * 400s, and Idempotency-Key replay (same key → the stored response with `Idempotent-Replayed: true`;
 * same key with other parameters → 400 `idempotency_error`). Test payment methods are Stripe's test
 * names (`pm_card_visa`, …), also reachable as confirmation tokens `ctoken_<name>`.
 * It records every request, so tests can assert what was sent. Tests only: no network.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Record<string, unknown>;
}

interface Stored {
  status: number;
  body: Json;
  fingerprint: string;
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly paymentMethods = new Map<string, Json>();
  readonly paymentIntents = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  /** Disputes a test opened (fake-stripe-disputes.ts), by id. */
  readonly disputes = new Map<string, Json>();
  private readonly idempotent = new Map<string, Stored>();
  private dropNext = false;
  /** Answer ids where `expand[]` asked for objects (as an older API version or a proxy might). */
  ignoreExpand = false;
  /** `processing`: charges stay in flight (a bank debit), settled later by a webhook the test sends. */
  chargeStatus: 'succeeded' | 'processing' = 'succeeded';
  /** `pending`: refunds are answered pending (as bank refunds are), settled later by a webhook. */
  refundStatus: 'succeeded' | 'pending' = 'succeeded';
  private server: http.Server | null = null;
  /** Stripe Tax's calculations, when a test sets it: `/v1/tax/calculations` is handed to it. */
  tax: FakeStripeTax | null = null;
  /** While set, payment intents are answered only once it resolves (a charge still at the bank). */
  private chargeGate: Promise<void> | null = null;

  constructor(readonly secretKey = 'sk_test_fake') {}

  /** Stripe's events and their signatures (fake-stripe-events.ts), for the tests that post webhooks. */
  static readonly event = stripeEvent;
  static readonly signedEvent = signedStripeEvent;

  async start(): Promise<{ host: string; port: number }> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', chunk => chunks.push(chunk));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
    return { host: '127.0.0.1', port: (this.server.address() as AddressInfo).port };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>(resolve => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * Holds every payment intent's answer until the returned function is called; `held` resolves when
   * the first one arrives, so a test knows a charge is in flight.
   */
  holdCharges(): { held: Promise<void>; release: () => void } {
    let release!: () => void;
    let arrived!: () => void;
    const held = new Promise<void>(resolve => (arrived = resolve));
    const gate = new Promise<void>(resolve => (release = resolve));
    this.chargeGate = gate.then(() => {
      this.chargeGate = null;
    });
    this.onCharge = arrived;
    return { held, release };
  }
  private onCharge: (() => void) | null = null;

  /** The next request is executed and stored, then its connection is dropped before any response. */
  dropNextResponse(): void {
    this.dropNext = true;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const gate = this.chargeGate;
    if (gate && (req.url ?? '').startsWith('/v1/payment_intents')) {
      this.onCharge?.();
      this.onCharge = null;
      void gate.then(() => this.handle(req, res, raw));
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (this.tax && path === '/v1/tax/calculations') {
      this.tax.respond(req, res, raw);
      return;
    }
    const params = parseForm(raw);
    const key = header(req, 'idempotency-key');
    this.requests.push({ method: req.method ?? '', path, idempotencyKey: key, params });
    const send = (status: number, body: Json, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${id()}`,
        ...(key ? { 'idempotency-key': key } : {}),
        ...extra,
      });
      res.end(JSON.stringify(body));
    };
    if (header(req, 'authorization') !== `Bearer ${this.secretKey}`) {
      send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
      return;
    }
    const fingerprint = createHash('sha256').update(`${req.method} ${path} ${raw}`).digest('hex');
    if (key && req.method === 'POST') {
      const stored = this.idempotent.get(key);
      if (stored && stored.fingerprint !== fingerprint) {
        send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        });
        return;
      }
      if (stored) {
        send(stored.status, stored.body, { 'idempotent-replayed': 'true' });
        return;
      }
    }
    const [status, body] = this.route(req.method ?? '', path, params);
    if (key && req.method === 'POST') this.idempotent.set(key, { status, body, fingerprint });
    if (this.dropNext) {
      this.dropNext = false;
      req.socket.destroy();
      return;
    }
    send(status, body);
  }

  private route(method: string, path: string, p: Json): [number, Json] {
    if (method !== 'POST') return notFound(path);
    // Canceling an abandoned 3-D Secure intent: fake-stripe-3ds.ts.
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (cancel) return cancelAnswer(this.paymentIntents.get(cancel[1]), cancel[1], p);
    const closed = closeDisputeAnswer(this.disputes, path);
    if (closed) return closed;
    switch (path) {
      case '/v1/customers':
        return [200, this.createCustomer(p)];
      case '/v1/setup_intents':
        return this.createSetupIntent(p);
      case '/v1/payment_intents':
        return this.createPaymentIntent(p);
      case '/v1/refunds':
        return this.createRefund(p);
      case '/v1/confirmation_tokens':
      case '/v1/test_helpers/payment_intents/next_action':
        return this.routeStripeJs(path, p);
      default:
        return notFound(path);
    }
  }

  private createCustomer(p: Json): Json {
    const customer = {
      id: `cus_${id()}`,
      object: 'customer',
      created: now(),
      email: p.email ?? null,
      name: p.name ?? null,
      metadata: p.metadata ?? {},
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /** A payment method given as `payment_method` (a test name or a saved `pm_…`) or `confirmation_token`. */
  private resolveMethod(p: Json): { card: Card; saved: Json | null; param: string; value: string } | null {
    const param = p.confirmation_token ? 'confirmation_token' : 'payment_method';
    const value: string = p.confirmation_token ?? p.payment_method ?? '';
    const name =
      param === 'confirmation_token' ? (this.confirmationTokens.get(value) ?? value.replace(/^ctoken_/, '')) : value;
    if (CARDS[name]) return { card: CARDS[name], saved: null, param, value };
    // 3-D Secure (H1): fake-stripe-3ds.ts.
    if (THREE_D_SECURE_CARDS[name]) return { card: THREE_D_SECURE_CARDS[name], saved: null, param, value };
    const saved = param === 'payment_method' ? this.paymentMethods.get(value) : undefined;
    if (saved)
      return { card: CARDS[saved.__test_name] ?? THREE_D_SECURE_CARDS[saved.__test_name], saved, param, value };
    return null;
  }

  private paymentMethodObject(card: Card, customer: string | null, testName: string): Json {
    return {
      id: `pm_${id()}`,
      object: 'payment_method',
      type: 'card',
      created: now(),
      customer,
      livemode: false,
      metadata: {},
      billing_details: { address: null, email: null, name: null, phone: null },
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit' },
      __test_name: testName,
    };
  }

  private createSetupIntent(p: Json): [number, Json] {
    const resolved = this.resolveMethod(p);
    if (!resolved) return missing(p);
    const testName = resolved.saved?.__test_name ?? this.testNameOf(resolved.value);
    const intent: Json = {
      id: `seti_${id()}`,
      object: 'setup_intent',
      created: now(),
      customer: p.customer ?? null,
      usage: p.usage ?? 'off_session',
      client_secret: `seti_secret_${id()}`,
      livemode: false,
      last_setup_error: null,
      payment_method: null,
      status: 'requires_payment_method',
    };
    if (resolved.card.declined) {
      const error = cardError(resolved.card.declined);
      intent.last_setup_error = error;
      return [402, { error: { ...error, setup_intent: intent } }];
    }
    const method = resolved.saved ?? this.paymentMethodObject(resolved.card, p.customer ?? null, testName);
    this.paymentMethods.set(method.id, method);
    // 3-D Secure (H1): saving asks for authentication; the test's `setup_intent.succeeded` settles it.
    if (requiresAuthentication(testName) && !resolved.saved) {
      intent.payment_method = method.id;
      return actionAnswer(intent, false);
    }
    intent.status = 'succeeded';
    intent.payment_method = expands(p, 'payment_method') && !this.ignoreExpand ? publicOf(method) : method.id;
    return [200, intent];
  }

  private createPaymentIntent(p: Json): [number, Json] {
    const resolved = this.resolveMethod(p);
    if (!resolved) return missing(p);
    if (resolved.saved && resolved.saved.customer !== (p.customer ?? null))
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'payment_method_unexpected_state',
            message: 'The provided PaymentMethod belongs to another customer.',
          },
        },
      ];
    const testName = resolved.saved?.__test_name ?? this.testNameOf(resolved.value);
    const method =
      resolved.saved ??
      this.paymentMethodObject(resolved.card, p.setup_future_usage ? (p.customer ?? null) : null, testName);
    const intent: Json = {
      id: `pi_${id()}`,
      object: 'payment_intent',
      created: now(),
      amount: Number(p.amount),
      amount_received: 0,
      currency: p.currency,
      customer: p.customer ?? null,
      description: p.description ?? null,
      metadata: p.metadata ?? {},
      client_secret: `pi_secret_${id()}`,
      livemode: false,
      setup_future_usage: p.setup_future_usage ?? null,
      payment_method: method.id,
      latest_charge: `ch_${id()}`,
      last_payment_error: null,
      status: 'requires_payment_method',
    };
    this.paymentIntents.set(intent.id, intent);
    const decline = resolved.card.declined ?? (resolved.card.chargeFails ? generic : null);
    if (decline) {
      const error = { ...cardError(decline), charge: intent.latest_charge };
      intent.last_payment_error = error;
      intent.payment_method = null;
      return [402, { error: { ...error, payment_intent: intent } }];
    }
    if (p.setup_future_usage) this.paymentMethods.set(method.id, method);
    // 3-D Secure (H1): on-session waits for the customer, off-session is declined.
    if (requiresAuthentication(testName)) {
      const [status, body] = actionAnswer(intent, p.off_session === 'true' || p.off_session === true);
      if (status !== 200) return [status, body];
      return [
        200,
        { ...body, payment_method: expands(p, 'payment_method') && !this.ignoreExpand ? publicOf(method) : method.id },
      ];
    }
    if (this.chargeStatus === 'processing') {
      intent.status = 'processing';
      return [200, { ...intent, payment_method: method.id }];
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    return [
      200,
      { ...intent, payment_method: expands(p, 'payment_method') && !this.ignoreExpand ? publicOf(method) : method.id },
    ];
  }

  private createRefund(p: Json): [number, Json] {
    const intent = this.paymentIntents.get(p.payment_intent);
    if (!intent) return missing({ payment_intent: p.payment_intent }, 'payment_intent');
    const refunded = [...this.refunds.values()]
      .filter(r => r.payment_intent === intent.id)
      .reduce((sum, r) => sum + r.amount, 0);
    // Stripe's answer once nothing is left, whatever the amount asked (a refund made in its dashboard, say).
    if (refunded >= intent.amount_received)
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Charge ${intent.latest_charge} has already been refunded.`,
          },
        },
      ];
    const amount = p.amount === undefined ? intent.amount_received - refunded : Number(p.amount);
    if (refunded + amount > intent.amount_received)
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            param: 'amount',
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount_received - refunded})`,
          },
        },
      ];
    const refund = {
      id: `re_${id()}`,
      object: 'refund',
      created: now(),
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      reason: p.reason ?? null,
      metadata: p.metadata ?? {},
      status: this.refundStatus,
      failure_reason: null,
    };
    this.refunds.set(refund.id, refund);
    return [200, refund];
  }
  // ── Stripe.js: confirmation tokens and next actions (test/support/fake-stripe-js.ts calls these) ──

  /** `ctoken_…` minted for the fake Payment Element → the test method it stands for. */
  readonly confirmationTokens = new Map<string, string>();
  /** Where the events of a completed or failed next action go, signed as Stripe signs (null: nowhere). */
  webhookEndpoint: WebhookEndpoint | null = null;

  private testNameOf(value: string): string {
    return this.confirmationTokens.get(value) ?? value.replace(/^ctoken_/, '');
  }

  private routeStripeJs(path: string, p: Json): [number, Json] {
    return stripeJsRequest(path, p, this.confirmationTokens, this.paymentIntents, this.webhookEndpoint);
  }
}
