import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Json, parseForm } from './fake-stripe-wire.js';

/** A rate the fake knows, by `DE` or `US-CA`. */
export interface FakeStripeTaxRate {
  percentage: number;
  taxType: string;
}

/**
 * Stripe Tax's calculations API on loopback (`POST /v1/tax/calculations`), answering as Stripe
 * documents it: a `tax.calculation` with `tax_amount_exclusive`/`_inclusive`, `tax_breakdown[]`
 * (`taxability_reason`, `tax_rate_details{country,state,percentage_decimal,rate_type,tax_type}`) and,
 * with `expand[]=line_items`, `line_items.data[]` (`reference`, `amount`, `amount_tax`). Its rules are
 * a small stand-in for Stripe's: a place in `rates` is taxed (a buyer with a tax id outside `origin`'s
 * country gets `reverse_charge`), elsewhere `not_collecting`. A US address without a postal code is
 * `customer_tax_location_invalid`, as at Stripe. `outage` answers that status to every request until
 * cleared; `delayMs` answers late. Records each request's form. Tests only: no network.
 */
export class FakeStripeTax {
  readonly requests: Json[] = [];
  readonly rates = new Map<string, FakeStripeTaxRate>([
    ['DE', { percentage: 19, taxType: 'vat' }],
    ['FR', { percentage: 20, taxType: 'vat' }],
    ['US-CA', { percentage: 7.25, taxType: 'sales_tax' }],
  ]);
  origin = 'DE';
  outage: number | null = null;
  delayMs = 0;
  private server: Server | null = null;

  constructor(readonly secretKey = 'sk_test_fake_tax') {}

  /** Starts on 127.0.0.1 and answers the base URL to configure as `STRIPE_API_URL`. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', c => chunks.push(c));
      req.on('end', () => this.respond(req, res, Buffer.concat(chunks).toString()));
    });
    this.server = server;
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Answers one request already read (`raw`: its body); fake-stripe.ts hands it `/v1/tax/calculations`. */
  respond(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const send = ([status, body]: [number, Json]) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const answer = this.answer(req.method, req.url, req.headers.authorization, raw);
    setTimeout(() => send(answer), this.delayMs);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>(resolve => server.close(() => resolve()));
  }

  private answer(method?: string, url?: string, authorization?: string, raw = ''): [number, Json] {
    if (authorization !== `Bearer ${this.secretKey}`)
      return [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }];
    if (method !== 'POST' || url !== '/v1/tax/calculations')
      return [
        404,
        { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url}).` } },
      ];
    const form = parseForm(raw);
    this.requests.push(form);
    if (this.outage) return [this.outage, { error: { type: 'api_error', message: 'Stripe is unavailable.' } }];
    const address = form.customer_details?.address ?? {};
    if (!address.country) return paramError('customer_details[address][country]', 'Missing required param');
    if (address.country === 'US' && !address.postal_code)
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'customer_tax_location_invalid',
            message: 'We could not determine the customer tax location.',
          },
        },
      ];
    const taxIdValue = form.customer_details?.tax_ids?.['0']?.value;
    if (taxIdValue === 'INVALID') return paramError('customer_details[tax_ids][0][value]', 'Invalid value for eu_vat.');
    return [200, this.calculation(form, address, Boolean(taxIdValue))];
  }

  private calculation(form: Json, address: Json, business: boolean): Json {
    const place = this.rates.has(`${address.country}-${address.state}`)
      ? `${address.country}-${address.state}`
      : address.country;
    const rate = this.rates.get(place);
    const reverse = Boolean(rate) && business && address.country !== this.origin && rate!.taxType === 'vat';
    const percentage = rate && !reverse ? rate.percentage : 0;
    const items = Object.values(form.line_items ?? {}) as Json[];
    const lineItems = items.map((item, i) => {
      const amount = Number(item.amount);
      const tax =
        item.tax_behavior === 'exclusive'
          ? Math.round((amount * percentage) / 100)
          : amount - Math.round(amount / (1 + percentage / 100));
      return {
        id: `tax_li_${i}`,
        object: 'tax.calculation_line_item',
        amount,
        amount_tax: tax,
        reference: item.reference,
        tax_behavior: item.tax_behavior,
        tax_code: item.tax_code,
        quantity: 1,
      };
    });
    const exclusive = lineItems.filter(l => l.tax_behavior === 'exclusive').reduce((t, l) => t + l.amount_tax, 0);
    const inclusive = lineItems.filter(l => l.tax_behavior === 'inclusive').reduce((t, l) => t + l.amount_tax, 0);
    const id = `taxcalc_${randomBytes(8).toString('hex')}`;
    return {
      id,
      object: 'tax.calculation',
      currency: form.currency,
      amount_total: lineItems.reduce((t, l) => t + l.amount, 0) + exclusive,
      tax_amount_exclusive: exclusive,
      tax_amount_inclusive: inclusive,
      tax_breakdown: [
        {
          amount: exclusive + inclusive,
          inclusive: inclusive > 0,
          taxability_reason: reverse ? 'reverse_charge' : rate ? 'standard_rated' : 'not_collecting',
          taxable_amount: lineItems.reduce((t, l) => t + l.amount, 0),
          tax_rate_details: {
            country: address.country,
            state: rate && place.includes('-') ? address.state : null,
            percentage_decimal: percentage.toFixed(4),
            rate_type: 'percentage',
            tax_type: rate?.taxType ?? 'vat',
          },
        },
      ],
      ...(Object.values(form.expand ?? {}).includes('line_items')
        ? {
            line_items: {
              object: 'list',
              data: lineItems,
              has_more: false,
              url: `/v1/tax/calculations/${id}/line_items`,
            },
          }
        : {}),
    };
  }
}

function paramError(param: string, message: string): [number, Json] {
  return [400, { error: { type: 'invalid_request_error', code: 'parameter_invalid', param, message } }];
}
