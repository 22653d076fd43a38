import { parseMajorUnits } from '../../../kit/money/format.js';
import { type DashboardContext, formField, html, type HtmlValue, rawHtml, type Wire } from './section.js';

/** The tier rows a seat price's form carries: a fixed number, so the form works without scripts; blank rows are ignored. */
export const SEAT_TIER_ROWS = 5;
const TIER_TYPES = [
  { value: 'volume', label: 'Volume: every seat at the price of the tier the count falls in' },
  { value: 'graduated', label: 'Graduated: each seat at the price of its own tier' },
] as const;

const WHOLE = /^\d+$/;

/**
 * The `seat_tiers` of a seat price's form: the non-blank tier rows (from seat, to seat or blank for no maximum,
 * price per seat in major units) and the tier type; with no row filled, one volume tier from the first seat at
 * `price` (the form's single amount, as before tiers). The rows' order and contiguity are the API's to judge
 * (its 422, shown on the form); what is not a number is the form's own error.
 */
export function seatTiersFromForm(ctx: DashboardContext, currency: string): Wire | string {
  const tiers: Wire[] = [];
  for (let i = 0; i < SEAT_TIER_ROWS; i++) {
    const [min, max, price] = ['min', 'max', 'price'].map(part => formField(ctx, `tier_${part}_${i}`).trim());
    if (!min && !max && !price) continue;
    const amount = parseMajorUnits(price, currency);
    if (!WHOLE.test(min) || (max && !WHOLE.test(max)) || amount === null || amount < 0n)
      return `Give seat tier ${i + 1} as whole seat counts (the last "to" may be empty) and a price per seat, such as 10.00.`;
    tiers.push({ min_seats: Number(min), max_seats: max ? Number(max) : null, price_per_seat: Number(amount) });
  }
  if (!tiers.length) {
    const amount = parseMajorUnits(formField(ctx, 'price'), currency);
    if (amount === null || amount < 0n)
      return 'Give the price per seat as a number, such as 10.00, or fill the seat tiers.';
    tiers.push({ min_seats: 1, price_per_seat: Number(amount) });
  }
  const chosen = formField(ctx, 'seat_tier_type');
  const type = TIER_TYPES.some(t => t.value === chosen) ? chosen : 'volume';
  return { seat_tier_type: type, tiers };
}

/** The seat tiers' fields: the tier type and `SEAT_TIER_ROWS` rows, refilled from the posted form. */
export function seatTierFields(ctx: DashboardContext, code: string): HtmlValue {
  const chosen = formField(ctx, 'seat_tier_type') || 'volume';
  const rows = Array.from({ length: SEAT_TIER_ROWS }, (_, i) => {
    const input = (part: string, label: string, mode: string) =>
      html`<div class="field"><label for="tier-${part}-${i}">${label}</label><input id="tier-${part}-${i}" type="text" inputmode="${mode}" name="tier_${part}_${i}" value="${formField(ctx, `tier_${part}_${i}`)}"></div>`;
    return html`<div class="row" data-seat-tier="${i}">${input('min', `Tier ${i + 1} from seat`, 'numeric')}${input('max', `Tier ${i + 1} to seat (empty: no maximum, the last tier only)`, 'numeric')}${input('price', `Tier ${i + 1} price per seat (${code})`, 'decimal')}</div>`;
  });
  return html`<fieldset class="stack"><legend>Seat tiers (per-seat price only: one row per tier; with every row empty, the Price above is charged per seat from the first seat)</legend>
<div class="field"><label for="seat-tier-type">Tier type</label><select id="seat-tier-type" name="seat_tier_type">${TIER_TYPES.map(
    t => html`<option value="${t.value}"${t.value === chosen ? rawHtml(' selected') : null}>${t.label}</option>`,
  )}</select></div>${rows}</fieldset>`;
}

/** A seat price's tiers as the merchant reads them: `$10.00 / month per seat from 1 seat to 5 seats; …`. */
export function describeSeatTiers(price: Wire, each: (amount: number) => string): string {
  const seats = (n: number) => `${n} seat${n === 1 ? '' : 's'}`;
  const tiers = (price.seat_tiers?.tiers ?? []).map(
    (t: Wire) =>
      `${each(t.price_per_seat)} per seat from ${seats(t.min_seats)}${t.max_seats != null ? ` to ${seats(t.max_seats)}` : ''}`,
  );
  return `${tiers.join('; ')}${price.seat_tiers?.seat_tier_type === 'graduated' ? ' (graduated)' : ''}`;
}
