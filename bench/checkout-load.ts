// The checkout-confirm load shared by target k (bench/orders.ts) and target n (bench/scaling.ts): a taxed
// sandbox sale (the seller in Germany, every buyer with a French address: VAT on the checkout, its update
// and its confirm, docs/tax.md#checkouts) created with POST /v1/checkouts/ and confirmed with pm_card_visa
// at POST /v1/checkouts/client/{secret}/confirm, run by closed loops for a while.
import { randomBytes } from 'node:crypto';

export interface Seller {
  /** POSTs (or PATCHes) JSON as the organization, or without a token; throws on an answer of 300 or more. */
  post(baseUrl: string, path: string, body: unknown, auth?: boolean, method?: string): Promise<Record<string, any>>;
  /** One sale on the service at `baseUrl`: answers the confirm's latency in ms. */
  sell(baseUrl: string): Promise<number>;
}

/** Makes the seller taxable and its product (through `baseUrl`); sales then go to whichever service is named. */
export async function checkoutSeller(o: { baseUrl: string; token: string; organizationId: string }): Promise<Seller> {
  const headers = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  const post = async (baseUrl: string, path: string, body: unknown, auth = true, method = 'POST') => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: auth ? headers : { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, any>;
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  // Tax is computed on every checkout (issue 24): a seller with a country, a buyer with an address.
  await post(o.baseUrl, `/v1/organizations/${o.organizationId}`, { country: 'DE' }, true, 'PATCH');
  const product = await post(o.baseUrl, '/v1/products/', {
    name: 'Bench checkout product',
    prices: [{ amount_type: 'fixed', price_amount: 1200 }],
  });
  // Buyers unique across sellers: target n makes one seller per step over the same database.
  const tag = randomBytes(3).toString('hex');
  let n = 0;
  const sell = async (baseUrl: string) => {
    n += 1;
    const checkout = await post(baseUrl, '/v1/checkouts/', {
      products: [product.id],
      customer_email: `bench-buyer-${tag}-${n}@example.com`,
      customer_billing_address: { line1: '10 Rue de Rivoli', postal_code: '75001', city: 'Paris', country: 'FR' },
    });
    const started = performance.now();
    await post(
      baseUrl,
      `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      { confirmation_token_id: 'pm_card_visa' },
      false,
    );
    return performance.now() - started;
  };
  return { post, sell };
}

export interface LoopResult {
  perSecond: number;
  /** Confirm latency percentiles, ms. */
  p50: number;
  p99: number;
  count: number;
  failed: number;
}

/** Runs each loop's sale back to back for `seconds`; the first failure is logged, all are counted. */
export async function runSales(
  seconds: number,
  loops: (() => Promise<number>)[],
  log: (line: string) => void,
): Promise<LoopResult> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let failed = 0;
  await Promise.all(
    loops.map(async sale => {
      while (performance.now() < until) {
        try {
          latencies.push(await sale());
        } catch (error) {
          failed += 1;
          if (failed === 1) log(`checkout failed: ${(error as Error).message}`);
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), count: latencies.length, failed };
}
