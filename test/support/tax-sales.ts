import { call, type Tenant } from './stack.js';

/*
 * What the tax end-to-end tests share: the expected amounts, computed here from the rates and never by
 * the service's own code, the buyers' addresses, and one merchant's calls (products, checkouts, sales)
 * through the public REST API.
 */

/** `n / d` rounded to the nearest integer, halves up (n, d > 0). */
export const div = (n: bigint, d: bigint) => Number((2n * n + d) / (2n * d));
/** An inclusive price's tax at `bp` basis points: the price less its net, the net rounded. */
export const inclusiveTax = (price: number, bp: number) => price - div(BigInt(price) * 10000n, BigInt(10000 + bp));
/** An exclusive amount's tax (a credit's is the mirror of the same debit). */
export const exclusiveTax = (amount: number, bp: number) =>
  Math.sign(amount) * div(BigInt(Math.abs(amount)) * BigInt(bp), 10000n);

export const DE = { line1: 'Unter den Linden 1', postal_code: '10117', city: 'Berlin', country: 'DE' };
export const FR = { line1: '10 Rue de Rivoli', postal_code: '75001', city: 'Paris', country: 'FR' };
export const US = { line1: '1 Market Street', postal_code: '94105', city: 'San Francisco', state: 'CA', country: 'US' };
export const NY = { line1: '350 Fifth Avenue', postal_code: '10118', city: 'New York', state: 'NY', country: 'US' };
export const GB = { line1: '10 Downing Street', postal_code: 'SW1A 2AA', city: 'London', country: 'GB' };
export const CANARY = { line1: 'Calle Mayor 1', postal_code: '35001', city: 'Las Palmas', country: 'ES' };

let n = 0;
/** A buyer's e-mail no other sale of the run uses. */
export const email = () => `buyer-${process.pid}-${++n}@example.com`;

/** One merchant's sales through the REST API at `base`, with its organization token. */
export class TaxMerchant {
  constructor(
    readonly base: string,
    readonly tenant: Tenant,
  ) {}

  readonly api = (method: string, path: string, body?: unknown) =>
    call(this.base, method, path, { token: this.tenant.oat, body });

  readonly client = (method: string, secret: string, suffix = '', body?: unknown) =>
    call(this.base, method, `/v1/checkouts/client/${secret}${suffix}`, { body });

  /** PATCHes the organization (its country, its tax settings); expects 200. */
  async settings(body: Record<string, unknown>): Promise<void> {
    const res = await this.api('PATCH', `/v1/organizations/${this.tenant.organizationId}`, body);
    expect(res.status).toBe(200);
  }

  async product(body: Record<string, unknown>): Promise<string> {
    const res = await this.api('POST', '/v1/products/', body);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A one-time product with one fixed price in `currency`, of `taxBehavior` (null: the organization's). */
  price(amount: number, taxBehavior: string | null = null, currency = 'eur'): Promise<string> {
    return this.product({
      name: `Product ${amount} ${currency} ${taxBehavior ?? 'default'}`,
      prices: [{ amount_type: 'fixed', price_currency: currency, price_amount: amount, tax_behavior: taxBehavior }],
    });
  }

  /** An open checkout for one product with the buyer's details; expects 201. */
  async open(productId: string, details: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const created = await this.api('POST', '/v1/checkouts/', { products: [productId], ...details });
    expect(created.status).toBe(201);
    return created.body;
  }

  /** A checkout for `productId` with the buyer's details, confirmed with a test card; its order and charge. */
  async buy(productId: string, details: Record<string, unknown>) {
    const created = await this.open(productId, { customer_email: email(), ...details });
    const confirmed = await this.client('POST', created.client_secret, '/confirm', {
      confirmation_token_id: 'pm_card_visa',
    });
    expect(confirmed.status).toBe(200);
    const orders = await this.api('GET', `/v1/orders/?checkout_id=${created.id}`);
    const order = orders.body.items[0];
    const payments = await this.api('GET', `/v1/payments/?order_id=${order.id}`);
    return { checkout: confirmed.body, order, charged: payments.body.items[0].amount as number };
  }
}
