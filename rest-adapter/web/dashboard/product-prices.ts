import { formatMoney, formatRecurringPrice, parseMajorUnits } from '../../../kit/money/format.js';
import { formatUnitAmount } from '../../../kit/money/metered.js';
import { html, type HtmlValue, rawHtml } from '../../web-kit/html.js';
import { csrfField } from '../../web-kit/layout.js';
import { type DashboardContext, formField } from './dashboard-context.js';

type Wire = Record<string, any>;

/** The price kinds a merchant picks on the forms (seat-based and metered prices are made through the API). */
export const PRICE_TYPES = [
  { value: 'fixed', label: 'Fixed price' },
  { value: 'custom', label: 'Pay what you want' },
  { value: 'free', label: 'Free' },
] as const;

/**
 * One price as the merchant reads it, whatever `products:get` answers: `$19.00 / month`, `Free`,
 * `Pay what you want, at least $0.50 (suggested $5.00)`, `$10.00 per seat from 1 seat`, `$0.005 per unit of
 * API calls`. The period is the product's (Polar's recurring products carry it).
 */
export function describePrice(price: Wire, product: Wire): string {
  const currency = price.price_currency;
  const interval = product.recurring_interval ?? price.recurring_interval;
  const count = product.recurring_interval_count ?? 1;
  const money = (amount: number) => formatMoney(BigInt(amount), currency);
  switch (price.amount_type) {
    case 'fixed':
      return Number(price.price_amount) === 0
        ? 'Free'
        : formatRecurringPrice(BigInt(price.price_amount), currency, interval, count);
    case 'free':
      return 'Free';
    case 'custom': {
      const preset = price.preset_amount != null ? ` (suggested ${money(price.preset_amount)})` : '';
      const most = price.maximum_amount != null ? `, at most ${money(price.maximum_amount)}` : '';
      return `Pay what you want, at least ${money(price.minimum_amount)}${most}${preset}`;
    }
    case 'seat_based':
      return (price.seat_tiers?.tiers ?? [])
        .map(
          (t: Wire) =>
            `${formatRecurringPrice(BigInt(t.price_per_seat), currency, interval, count)} per seat from ${t.min_seats} seat${t.min_seats === 1 ? '' : 's'}`,
        )
        .join('; ');
    case 'metered_unit': {
      const cap = price.cap_amount != null ? `, capped at ${money(price.cap_amount)}` : '';
      return `${formatUnitAmount(String(price.unit_amount), currency)} per unit of ${price.meter?.name ?? 'a meter'}${cap}`;
    }
    default:
      return String(price.amount_type);
  }
}

/**
 * The price a form describes (`price_type`, `price` in major units, for pay-what-you-want also the optional
 * `preset`), as Polar's create body in `currency`; or the words of the form's error.
 */
export function priceFromForm(ctx: DashboardContext, currency: string): Wire | string {
  const type = formField(ctx, 'price_type') || 'fixed';
  if (type === 'free') return { amount_type: 'fixed', price_amount: 0, price_currency: currency };
  const typed = formField(ctx, 'price').trim();
  if (type === 'custom') {
    // No minimum typed: the API's default (50 minor units, docs/polar/resources.md#product-and-prices).
    const minimum = typed ? parseMajorUnits(typed, currency) : null;
    const presetText = formField(ctx, 'preset').trim();
    const preset = presetText ? parseMajorUnits(presetText, currency) : null;
    if ((typed && (minimum === null || minimum < 0n)) || (presetText && (preset === null || preset < 0n)))
      return 'Give the minimum (and the suggested amount) as numbers, such as 5.00.';
    return {
      amount_type: 'custom',
      price_currency: currency,
      ...(minimum !== null ? { minimum_amount: Number(minimum) } : {}),
      ...(preset !== null ? { preset_amount: Number(preset) } : {}),
    };
  }
  if (type !== 'fixed') return 'Choose a fixed price, pay what you want, or free.';
  const amount = parseMajorUnits(typed, currency);
  if (amount === null || amount < 0n) return 'Give the price as a number, such as 19.00 (0 for free).';
  // A free price is a fixed price of 0 on the wire (docs/sdk-compatibility.md).
  return { amount_type: 'fixed', price_amount: Number(amount), price_currency: currency };
}

/**
 * The fields of a price: its kind, the amount (the minimum when paying what one wants) and a suggested amount.
 * The amount's label starts with "Price", as the create form's did (the browser test fills it by that label).
 */
export function priceFields(ctx: DashboardContext, currency: string): HtmlValue {
  const chosen = formField(ctx, 'price_type') || 'fixed';
  return html`<div class="row"><div class="field"><label for="price-type">Kind of price</label><select id="price-type" name="price_type">${PRICE_TYPES.map(
    t => html`<option value="${t.value}"${t.value === chosen ? rawHtml(' selected') : null}>${t.label}</option>`,
  )}</select></div>
<div class="field"><label for="price-amount">Price (${currency.toUpperCase()}; the minimum when paying what one wants)</label><input id="price-amount" type="text" inputmode="decimal" name="price" value="${formField(ctx, 'price')}" placeholder="19.00"></div>
<div class="field"><label for="price-preset">Suggested amount (pay what you want)</label><input id="price-preset" type="text" inputmode="decimal" name="preset" value="${formField(ctx, 'preset')}"></div></div>`;
}

const isStatic = (price: Wire) => price.amount_type !== 'metered_unit';

/** The currency of the product's static price, else the organization's (a new price replaces the one of its currency). */
export function priceCurrency(product: Wire, organizationCurrency: string): string {
  return (product.prices ?? []).find(isStatic)?.price_currency ?? organizationCurrency;
}

/**
 * The `prices` list of `products:update` that puts `price` in place of the static price of its currency, as
 * Polar replaces prices: the others are kept by `{id}`, the one left out is archived.
 */
export function replacingPrice(product: Wire, price: Wire): Wire[] {
  const kept = (product.prices ?? []).filter((p: Wire) => !(isStatic(p) && p.price_currency === price.price_currency));
  return [...kept.map((p: Wire) => ({ id: p.id })), price];
}

/** The `prices` list without the one of id `removed` (the API refuses a product left without a price). */
export function withoutPrice(product: Wire, removed: string): Wire[] {
  return (product.prices ?? []).filter((p: Wire) => p.id !== removed).map((p: Wire) => ({ id: p.id }));
}

/** The product page's prices: each with a remove button, and the form that sets a new price. */
export function pricesSection(ctx: DashboardContext, product: Wire, currency: string): HtmlValue {
  const base = `/dashboard/${ctx.organization.id}/products/${product.id}`;
  const prices: Wire[] = product.prices ?? [];
  const rows = prices.length
    ? html`<table><tbody>${prices.map(
        p =>
          html`<tr data-price="${p.id}" data-amount-type="${p.amount_type}"><td>${describePrice(p, product)}</td><td class="num"><form class="inline" method="post" action="${base}/prices/${p.id}/remove">${csrfField(ctx.csrfToken)}<button type="submit" class="secondary">Remove</button></form></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No prices.</p>`;
  return html`<h2>Prices</h2><div class="card">${rows}
<p class="muted">A new price replaces the ${currency.toUpperCase()} price; the old one is archived, and subscriptions on it go on.</p>
<form class="stack" method="post" action="${base}/prices">${csrfField(ctx.csrfToken)}${priceFields(ctx, currency)}
<div><button type="submit">Set price</button></div></form></div>`;
}
