import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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

interface Card {
  brand: string;
  last4: string;
  /** Declined when saved (SetupIntent) and when charged. */
  declined: { decline_code: string; message: string } | null;
  /** Saved fine, declined on every charge (pm_card_chargeCustomerFail). */
  chargeFails: boolean;
}

const generic = { decline_code: 'generic_decline', message: 'Your card was declined.' };
const CARDS: Record<string, Card> = {
  pm_card_visa: { brand: 'visa', last4: '4242', declined: null, chargeFails: false },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', declined: null, chargeFails: false },
  pm_card_amex: { brand: 'amex', last4: '8431', declined: null, chargeFails: false },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', declined: generic, chargeFails: false },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    declined: { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    chargeFails: false,
  },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', declined: null, chargeFails: true },
};

type Json = Record<string, any>;
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
  private readonly idempotent = new Map<string, Stored>();
  private dropNext = false;
  /** Answer ids where `expand[]` asked for objects (as an older API version or a proxy might). */
  ignoreExpand = false;
  /** `processing`: charges stay in flight (a bank debit), settled later by a webhook the test sends. */
  chargeStatus: 'succeeded' | 'processing' = 'succeeded';
  /** `pending`: refunds are answered pending (as bank refunds are), settled later by a webhook. */
  refundStatus: 'succeeded' | 'pending' = 'succeeded';
  private server: http.Server | null = null;

  constructor(readonly secretKey = 'sk_test_fake') {}

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

  /** The next request is executed and stored, then its connection is dropped before any response. */
  dropNextResponse(): void {
    this.dropNext = true;
  }

  /** A Stripe event (`evt_…`) about `object`, as Stripe sends it to a webhook endpoint. */
  static event(type: string, object: Json, at = new Date()): Json {
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
  static signedEvent(event: Json, secret: string, at: Date): { payload: string; header: string } {
    const payload = JSON.stringify(event, null, 2);
    const t = Math.floor(at.getTime() / 1000);
    const v1 = createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex');
    return { payload, header: `t=${t},v1=${v1}` };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const params = parseForm(raw);
    const path = (req.url ?? '').split('?')[0];
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
    switch (path) {
      case '/v1/customers':
        return [200, this.createCustomer(p)];
      case '/v1/setup_intents':
        return this.createSetupIntent(p);
      case '/v1/payment_intents':
        return this.createPaymentIntent(p);
      case '/v1/refunds':
        return this.createRefund(p);
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
    const name = param === 'confirmation_token' ? value.replace(/^ctoken_/, '') : value;
    if (CARDS[name]) return { card: CARDS[name], saved: null, param, value };
    const saved = param === 'payment_method' ? this.paymentMethods.get(value) : undefined;
    if (saved) return { card: CARDS[saved.__test_name], saved, param, value };
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
    const testName = resolved.saved?.__test_name ?? resolved.value.replace(/^ctoken_/, '');
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
    const testName = resolved.saved?.__test_name ?? resolved.value.replace(/^ctoken_/, '');
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
}

function cardError(decline: { decline_code: string; message: string }): Json {
  return {
    type: 'card_error',
    code: 'card_declined',
    decline_code: decline.decline_code,
    message: decline.message,
    doc_url: 'https://stripe.com/docs/error-codes/card-declined',
  };
}

function missing(p: Json, param = p.confirmation_token ? 'confirmation_token' : 'payment_method'): [number, Json] {
  const kind = {
    payment_method: 'PaymentMethod',
    confirmation_token: 'ConfirmationToken',
    payment_intent: 'PaymentIntent',
  }[param];
  return [
    400,
    {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param,
        message: `No such ${kind ?? param}: '${p[param]}'`,
        doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
      },
    },
  ];
}

function notFound(path: string): [number, Json] {
  return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${path}).` } }];
}

function publicOf(method: Json): Json {
  const { __test_name: _ignored, ...rest } = method;
  return rest;
}

function expands(p: Json, field: string): boolean {
  const expand = p.expand;
  return Array.isArray(expand) ? expand.includes(field) : Object.values(expand ?? {}).includes(field);
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function id(): string {
  return randomBytes(12).toString('hex');
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** Stripe's form encoding (`a[b]=1`, `expand[0]=x`) back into objects; indexed keys stay objects. */
function parseForm(raw: string): Json {
  const out: Json = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const path = name.replace(/\]/g, '').split('[');
    let node = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  return out;
}
