import { formatMoney, formatRecurringPrice } from '../../../kit/money/format.js';
import { REVERSE_CHARGE_MENTION } from '../invoices/invoice.document.js';
import { isReverseCharged, taxLinesOf } from '../invoices/invoice-tax.js';
import type { CustomerEmailKind } from './customer-email-policy.js';
import type { PurchasedBenefits } from './purchased-benefits.repository.js';

/**
 * The words of each customer e-mail (subjects as Polar's), as a plain-text part and an HTML part
 * built from the same lines. Every value that came from outside (a product name, an organization's
 * name) is escaped in the HTML. Amounts go through kit/money (the currency's own minor units), taken
 * from the order or subscription as it was charged. No password, token or card data beyond the
 * brand and last four digits is ever given to a template.
 */
type Payload = Record<string, any>;

export interface EmailLinks {
  /** The portal, signed in by the e-mail's one-time token. */
  portal: string;
  /** The order's invoice (PDF) through the portal, signed in the same way. */
  invoice?: string;
  /** The portal's Benefits page (each file's fresh download link), signed in the same way. */
  downloads?: string;
}

export interface EmailFacts {
  kind: CustomerEmailKind;
  organizationName: string;
  payload: Payload;
  links: EmailLinks;
  /** A card's brand and last four digits (the expiration reminder). */
  card?: { brand: string | null; last4: string | null; expMonth: number; expYear: number };
  /** What the purchase's grants hold (the confirmations): each license key, each file's name. */
  purchased?: PurchasedBenefits;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

type Line = { text: string } | { link: string; href: string } | { key: string; value: string };

const money = (amount: unknown, currency: unknown) => formatMoney(BigInt(Number(amount ?? 0)), String(currency));
const day = (iso: unknown) =>
  iso ? new Date(String(iso)).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : '';

/** The subject and the lines of one e-mail. */
function compose(f: EmailFacts): { subject: string; lines: Line[] } {
  const p = f.payload;
  const product = String(p.product?.name ?? p.description ?? 'your purchase');
  const description = String(p.description ?? product);
  const portal: Line = { link: 'Manage your purchases in the customer portal', href: f.links.portal };
  const orderLines = (): Line[] => [
    ...((p.items ?? []) as Payload[]).map(i => ({ key: String(i.label), value: money(i.amount, p.currency) })),
    ...(Number(p.discount_amount ?? 0) > 0 ? [{ key: 'Discount', value: money(-p.discount_amount, p.currency) }] : []),
    ...(p.tax_behavior === 'inclusive' ? [] : taxLines(p)),
    { key: 'Total', value: money(p.total_amount, p.currency) },
    ...(p.tax_behavior === 'inclusive' ? taxLines(p) : []),
    ...(reverseCharged(p) ? [{ text: REVERSE_CHARGE_MENTION }] : []),
    ...(p.invoice_number ? [{ key: 'Invoice number', value: String(p.invoice_number) }] : []),
    ...(f.links.invoice ? [{ link: 'Download the invoice', href: f.links.invoice }] : []),
  ];
  const benefits = ((p.product?.benefits ?? []) as Payload[]).map(b => String(b.description ?? ''));
  const bought = f.purchased ?? { licenseKeys: [], files: [] };
  const access: Line[] = [
    ...(benefits.length ? [{ text: `Included: ${benefits.join(', ')}.` }] : []),
    ...bought.licenseKeys.map(k => ({ key: `License key (${k.benefit})`, value: k.key })),
    ...bought.files.map(file => ({ link: `Download ${file.name}`, href: f.links.downloads ?? f.links.portal })),
    benefits.length ? { link: 'Access your purchase', href: f.links.portal } : portal,
  ];
  const plan = (): Line[] => [
    { key: 'Plan', value: product },
    { key: 'Amount', value: amountOf(p) },
  ];
  switch (f.kind) {
    case 'order_confirmation':
      return {
        subject: `Your ${description} order confirmation`,
        lines: [{ text: `Thank you for purchasing ${description}.` }, ...orderLines(), ...access],
      };
    case 'subscription_confirmation':
      return {
        subject: `Your ${description} subscription`,
        lines: [{ text: `Thank you for subscribing to ${product}.` }, ...orderLines(), ...access],
      };
    case 'subscription_cycled':
      return {
        subject: `Your ${description} subscription has been renewed`,
        lines: [{ text: `Your subscription to ${product} has been renewed.` }, ...orderLines(), portal],
      };
    case 'subscription_cycled_after_trial':
      return {
        subject: `Your ${description} subscription is now active`,
        lines: [
          { text: `Your trial has ended and your subscription to ${product} is now active.` },
          ...orderLines(),
          portal,
        ],
      };
    case 'subscription_updated':
      return p.billing_reason
        ? {
            subject: `Your subscription has changed to ${description}`,
            lines: [{ text: `Your subscription has changed to ${description}.` }, ...orderLines(), portal],
          }
        : {
            subject: `Your subscription has changed to ${product}`,
            lines: [{ text: `Your subscription has changed to ${product}.` }, ...plan(), portal],
          };
    case 'subscription_cancellation':
      return {
        subject: `Your ${product} subscription cancellation`,
        lines: [
          { text: `Your subscription to ${product} has been canceled.` },
          { text: `You keep access until ${day(p.ends_at ?? p.current_period_end)}; you will not be charged again.` },
          { text: 'Changed your mind? You can keep your subscription from the customer portal.' },
          portal,
        ],
      };
    case 'subscription_uncanceled':
      return {
        subject: `Your ${product} subscription is uncanceled`,
        lines: [{ text: `Your subscription to ${product} will continue.` }, ...plan(), portal],
      };
    case 'subscription_revoked':
      return {
        subject: `Your ${product} subscription has ended`,
        lines: [
          { text: `Your subscription to ${product} has ended and its benefits are no longer available.` },
          portal,
        ],
      };
    case 'subscription_paused':
      return {
        subject: `Your ${product} subscription is paused`,
        lines: [{ text: `Your subscription to ${product} is paused; you will not be charged while it is.` }, portal],
      };
    case 'subscription_resumed':
      return {
        subject: `Your ${product} subscription has resumed`,
        lines: [{ text: `Your subscription to ${product} has resumed.` }, ...plan(), portal],
      };
    case 'subscription_past_due':
      return {
        subject: `Your ${product} payment failed`,
        lines: [
          { text: `We could not charge ${amountOf(p)} for your subscription to ${product}.` },
          { text: 'Please update your payment method or pay from the customer portal to keep your subscription.' },
          { link: 'Update payment', href: f.links.portal },
        ],
      };
    case 'subscription_renewal_reminder':
      return {
        subject: `Your ${product} subscription renews soon`,
        lines: [
          { text: `Your subscription to ${product} renews on ${day(p.current_period_end)}.` },
          { key: 'Amount', value: amountOf(p) },
          portal,
        ],
      };
    case 'subscription_trial_conversion_reminder':
      return {
        subject: `Your ${product} trial is ending soon`,
        lines: [
          { text: `Your trial of ${product} ends on ${day(p.trial_end)}; your subscription starts then.` },
          { key: 'Amount', value: amountOf(p) },
          portal,
        ],
      };
    case 'payment_method_expiration_reminder': {
      const card = f.card!;
      const products: string[] = p.products ?? [product];
      const subscriptions = products.length > 1 ? 'subscriptions' : 'subscription';
      return {
        subject: `Your card ending in ${card.last4 ?? ''} expires soon`,
        lines: [
          {
            text: `Your ${card.brand ?? 'card'} ending in ${card.last4 ?? ''} expires at the end of ${String(card.expMonth).padStart(2, '0')}/${card.expYear}. It pays for your ${subscriptions} to ${listOf(products)}.`,
          },
          { text: `Add a new payment method to keep your ${subscriptions} running.` },
          { link: 'Update payment method', href: f.links.portal },
        ],
      };
    }
  }
}

/**
 * The order's tax as its e-mail shows it (docs/tax.md#invoices): one line per rate charged ("VAT 19 %",
 * "Including VAT 19 %" when the prices included it), or one "Tax" line; none when no tax was owed.
 */
function taxLines(p: Payload): Line[] {
  if (!Number(p.tax_amount ?? 0)) return [];
  const prefix = p.tax_behavior === 'inclusive' ? 'Including ' : '';
  const lines = taxLinesOf(p.tax_breakdown ?? [], BigInt(p.tax_amount)) ?? [{ label: 'Tax', amount: p.tax_amount }];
  return lines.map(line => ({ key: `${prefix}${line.label}`, value: money(line.amount, p.currency) }));
}

const reverseCharged = (p: Payload) => isReverseCharged(p.tax_breakdown ?? []);

/** A subscription's price and period, as every page says it ("$49.00 / 3 months"): kit/money's one rule. */
function amountOf(p: Payload): string {
  return formatRecurringPrice(
    BigInt(Number(p.amount ?? 0)),
    String(p.currency),
    p.recurring_interval as string | null,
    p.recurring_interval_count as number | null,
  );
}

export function renderCustomerEmail(f: EmailFacts): RenderedEmail {
  const { subject, lines } = compose(f);
  const footer = `You receive this e-mail because you bought from ${f.organizationName}.`;
  const text = [
    ...lines.map(l => ('text' in l ? l.text : 'link' in l ? `${l.link}: ${l.href}` : `${l.key}: ${l.value}`)),
    '',
    `— ${f.organizationName}`,
    footer,
  ].join('\n');
  const body = lines
    .map(l =>
      'text' in l
        ? `<p>${escapeHtml(l.text)}</p>`
        : 'link' in l
          ? `<p><a href="${escapeHtml(l.href)}">${escapeHtml(l.link)}</a></p>`
          : `<p><strong>${escapeHtml(l.key)}:</strong> ${escapeHtml(l.value)}</p>`,
    )
    .join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;max-width:560px;margin:auto"><h2>${escapeHtml(f.organizationName)}</h2>\n${body}\n<hr><p style="color:#666;font-size:12px">${escapeHtml(footer)}</p></body></html>`;
  return { subject, text, html };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, c => ESCAPES[c]);
}

/** "A", "A and B", "A, B and C". */
function listOf(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}
