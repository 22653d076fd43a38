import { formatMoney, formatRecurringPrice, parseMajorUnits } from '../../../kit/money/format.js';
import { formatUnitAmount, parseUnitAmount } from '../../../kit/money/metered.js';
import { describeSeatTiers, seatTierFields, seatTiersFromForm } from './seat-tiers.js';
import { csrfField, type DashboardContext, formField, html, type HtmlValue, rawHtml, type Wire } from './section.js';

/** The price kinds a merchant picks on the forms. */
export const PRICE_TYPES = [
  { value: 'fixed', label: 'Fixed price' },
  { value: 'custom', label: 'Pay what you want' },
  { value: 'free', label: 'Free' },
  { value: 'seat_based', label: 'Per seat' },
  { value: 'metered_unit', label: 'Metered, per unit' },
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
      return describeSeatTiers(price, amount => formatRecurringPrice(BigInt(amount), currency, interval, count));
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
 * `preset`, for a seat price its tiers (or one per-seat amount in `price`, seat-tiers.ts), for a metered price
 * `meter_id`, `unit_amount` and the optional `cap`), as Polar's create body in `currency`; or the words of the
 * form's error.
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
  if (type === 'metered_unit') return meteredFromForm(ctx, currency);
  if (type === 'seat_based') {
    const tiers = seatTiersFromForm(ctx, currency);
    return typeof tiers === 'string'
      ? tiers
      : { amount_type: 'seat_based', price_currency: currency, seat_tiers: tiers };
  }
  if (type !== 'fixed') return 'Choose a kind of price from the list.';
  const amount = parseMajorUnits(typed, currency);
  if (amount === null || amount < 0n) return 'Give the price as a number, such as 19.00 (0 for free).';
  // A free price is a fixed price of 0 on the wire (docs/sdk-compatibility.md).
  return { amount_type: 'fixed', price_amount: Number(amount), price_currency: currency };
}

/**
 * A metered price: the meter, the unit amount typed in major units (`0.005`) sent as Polar's decimal string of
 * minor units (`"0.5"`, docs/usage-billing.md#metered-prices), and an optional cap in major units.
 */
function meteredFromForm(ctx: DashboardContext, currency: string): Wire | string {
  const meterId = formField(ctx, 'meter_id');
  if (!meterId) return 'Choose the meter the price charges for.';
  const unitAmount = parseUnitAmount(formField(ctx, 'unit_amount'), currency);
  if (unitAmount === null) return 'Give the price of one unit as a number, such as 0.005.';
  const capText = formField(ctx, 'cap').trim();
  const cap = capText ? parseMajorUnits(capText, currency) : null;
  if (capText && (cap === null || cap < 0n)) return 'Give the cap as a number, such as 100.00, or leave it empty.';
  return {
    amount_type: 'metered_unit',
    price_currency: currency,
    meter_id: meterId,
    unit_amount: unitAmount,
    ...(cap !== null ? { cap_amount: Number(cap) } : {}),
  };
}

/**
 * The fields of a price: its kind, the amount (the minimum when paying what one wants, the amount per seat), a
 * suggested amount, and for a metered price the meter (from `meters:list`), the unit amount and the cap. The
 * amount's label starts with "Price", as the create form's did (the browser test fills it by that label).
 */
export function priceFields(ctx: DashboardContext, currency: string, meters: Wire[]): HtmlValue {
  const chosen = formField(ctx, 'price_type') || 'fixed';
  const meter = formField(ctx, 'meter_id');
  const code = currency.toUpperCase();
  return html`<div class="row"><div class="field"><label for="price-type">Kind of price</label><select id="price-type" name="price_type">${PRICE_TYPES.map(
    t => html`<option value="${t.value}"${t.value === chosen ? rawHtml(' selected') : null}>${t.label}</option>`,
  )}</select></div>
<div class="field"><label for="price-amount">Price (${code}; the minimum when paying what one wants, per seat for a seat price without tiers)</label><input id="price-amount" type="text" inputmode="decimal" name="price" value="${formField(ctx, 'price')}" placeholder="19.00"></div>
<div class="field"><label for="price-preset">Suggested amount (pay what you want)</label><input id="price-preset" type="text" inputmode="decimal" name="preset" value="${formField(ctx, 'preset')}"></div></div>
<div class="row"><div class="field"><label for="price-meter">Meter (metered price)</label><select id="price-meter" name="meter_id"><option value="">None</option>${meters.map(
    m => html`<option value="${m.id}"${m.id === meter ? rawHtml(' selected') : null}>${m.name}</option>`,
  )}</select></div>
<div class="field"><label for="price-unit">Unit amount (${code}, metered)</label><input id="price-unit" type="text" inputmode="decimal" name="unit_amount" value="${formField(ctx, 'unit_amount')}" placeholder="0.005"></div>
<div class="field"><label for="price-cap">Cap per period (${code}, metered, optional)</label><input id="price-cap" type="text" inputmode="decimal" name="cap" value="${formField(ctx, 'cap')}"></div></div>
${seatTierFields(ctx, code)}`;
}

/** The organization's live meters for the metered price's list (`meters:list`, 100 at most). */
export async function organizationMeters(ctx: DashboardContext): Promise<Wire[]> {
  const { items } = await ctx.call('meters:list', {
    query: { organization_id: ctx.organization.id, is_archived: 'false', limit: '100' },
  });
  return items;
}

const isStatic = (price: Wire) => price.amount_type !== 'metered_unit';

/** The currency of the product's static price, else the organization's (a new price replaces the one of its currency). */
export function priceCurrency(product: Wire, organizationCurrency: string): string {
  return (product.prices ?? []).find(isStatic)?.price_currency ?? organizationCurrency;
}

/**
 * The `prices` list of `products:update` that puts a static `price` in place of the static price of its
 * currency (a metered price is added beside the others), as Polar replaces prices: the others are kept by
 * `{id}`, the one left out is archived.
 */
export function replacingPrice(product: Wire, price: Wire): Wire[] {
  const replaced = (p: Wire) => isStatic(price) && isStatic(p) && p.price_currency === price.price_currency;
  const kept = (product.prices ?? []).filter((p: Wire) => !replaced(p));
  return [...kept.map((p: Wire) => ({ id: p.id })), price];
}

/** The `prices` list without the one of id `removed` (the API refuses a product left without a price). */
export function withoutPrice(product: Wire, removed: string): Wire[] {
  return (product.prices ?? []).filter((p: Wire) => p.id !== removed).map((p: Wire) => ({ id: p.id }));
}

/** The product page's prices: each with a remove button, and the form that sets a new price. */
export function pricesSection(ctx: DashboardContext, product: Wire, currency: string, meters: Wire[]): HtmlValue {
  const base = `/dashboard/${ctx.organization.id}/products/${product.id}`;
  const prices: Wire[] = product.prices ?? [];
  const rows = prices.length
    ? html`<table><tbody>${prices.map(
        p =>
          html`<tr data-price="${p.id}" data-amount-type="${p.amount_type}"><td>${describePrice(p, product)}</td><td class="num"><form class="inline" method="post" action="${base}/prices/${p.id}/remove">${csrfField(ctx.csrfToken)}<button type="submit" class="secondary">Remove</button></form></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No prices.</p>`;
  return html`<h2>Prices</h2><div class="card">${rows}
<p class="muted">A new price replaces the ${currency.toUpperCase()} price (a metered price is added beside it); the old one is archived, and subscriptions on it go on.</p>
<form class="stack" method="post" action="${base}/prices">${csrfField(ctx.csrfToken)}${priceFields(ctx, currency, meters)}
<div><button type="submit">Set price</button></div></form></div>`;
}
