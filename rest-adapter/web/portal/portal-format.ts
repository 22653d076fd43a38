import { formatInterval, formatMoney, formatRecurringPrice } from '../../../kit/money/format.js';

type Wire = Record<string, any>;

/** `Nov 24, 2026` (UTC: the dates of a billing period are the same for everyone). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(value));
}

/** Meter units as a person reads them: `1,001`, `2.5`. */
export function formatUnits(units: number | null | undefined): string {
  if (units == null) return '—';
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 }).format(units);
}

export function formatAmount(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount == null || !currency) return '—';
  return formatMoney(BigInt(amount), currency);
}

/** A subscription's price: `$10.00 / month`, `$90.00 / 3 months` (kit/money's one recurring format). */
export function formatRecurring(subscription: Wire): string {
  const { amount, currency, recurring_interval, recurring_interval_count } = subscription;
  if (amount == null || !currency) return '—';
  return formatRecurringPrice(BigInt(amount), currency, recurring_interval, recurring_interval_count);
}

/**
 * A product's first price as the plan picker shows it: `$49.00 / month`, `Free / month`, `Pay what you
 * want / month`, `$10.00 per seat / month`. The interval is the product's (Polar's recurring products carry it), else the price's.
 */
export function formatProductPrice(product: Wire): string {
  const price = (product.prices ?? [])[0];
  if (!price) return '';
  const interval = product.recurring_interval ?? price.recurring_interval;
  const count = product.recurring_interval_count ?? 1;
  // A free price is on the wire as a fixed price of 0 (docs/polar/resources.md#product-and-prices).
  const free = price.amount_type === 'free' || (price.amount_type === 'fixed' && Number(price.price_amount) === 0);
  if (!free && price.price_amount != null && price.price_currency)
    return formatRecurringPrice(BigInt(price.price_amount), price.price_currency, interval, count);
  const perSeat = price.seat_tiers?.tiers?.[0]?.price_per_seat;
  if (perSeat != null && price.price_currency)
    return `${formatMoney(BigInt(perSeat), price.price_currency)} per seat ${formatInterval(interval, count)}`.trim();
  const words = free ? 'Free' : price.amount_type === 'custom' ? 'Pay what you want' : '';
  const period = formatInterval(interval, count);
  return words && period ? `${words} ${period}` : words;
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Past due',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
  incomplete_expired: 'Expired',
  paused: 'Paused',
};

/** A subscription's state in words: "Active", "Cancels on Dec 24, 2026", "Canceled". */
export function subscriptionState(subscription: Wire): { label: string; tone: 'ok' | 'warn' | '' } {
  if (subscription.cancel_at_period_end && !subscription.ended_at)
    return { label: `Cancels on ${formatDate(subscription.ends_at ?? subscription.current_period_end)}`, tone: 'warn' };
  const label = STATUS_LABELS[subscription.status] ?? subscription.status;
  return { label, tone: subscription.status === 'active' || subscription.status === 'trialing' ? 'ok' : '' };
}

/** Only web addresses lead back to the merchant (never `javascript:` or other schemes). */
export function safeExternalUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * A link the API gives (a signed invoice or file download) as a path when it is on this environment's
 * public URL, so the browser stays on the origin it uses; another web address as it is.
 */
export function siteLink(url: unknown, publicUrl: string): string | null {
  const absolute = safeExternalUrl(url);
  if (!absolute) return null;
  const link = new URL(absolute);
  return link.origin === new URL(publicUrl).origin ? `${link.pathname}${link.search}` : absolute;
}
