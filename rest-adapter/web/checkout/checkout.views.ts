import { formatMoney, formatRecurringPrice } from '../../../kit/money/format.js';
import { isReverseCharged, REVERSE_CHARGE_MENTION, taxLinesOf } from '../../../subgraphs/billing/contract.js';
import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import type { StripeJsSettings } from '../../web-kit/stripe-js.js';
import { elementsModeOf, stripeCardField } from '../card-entry/card-entry.view.js';
import { attachedFieldsOf, customFieldsFieldset, shownAnswer } from './custom-fields.view.js';

/** A checkout as the client endpoints answer it (Polar's CheckoutPublic, snake_case). */
export type PublicCheckout = Record<string, any>;

/**
 * How this environment takes a card: `test` (the sandbox's test processor, Stripe's test method names,
 * no script), `stripe` (Stripe's Payment Element from Stripe.js, with the publishable key), `none` (no
 * processor: only free checkouts complete).
 */
export type CardEntry = 'test' | 'stripe' | 'none';

export const TEST_PAYMENT_METHODS = [
  'pm_card_visa',
  'pm_card_mastercard',
  'pm_card_amex',
  'pm_card_chargeDeclined',
  'pm_card_chargeDeclinedInsufficientFunds',
];

/** What the buyer typed, shown again after a refused post (instead of what the checkout holds). */
export interface CheckoutForm {
  customer_email?: string;
  customer_name?: string;
  discount_code?: string;
  product_id?: string;
  country?: string;
  state?: string;
  city?: string;
  postal_code?: string;
  line1?: string;
  line2?: string;
  customer_tax_id?: string;
  /** The custom field answers as typed, by slug, and each field's type (custom-fields.view.ts). */
  custom_fields?: Record<string, string>;
  custom_field_types?: Record<string, string>;
}

const ADDRESS_FIELDS: {
  key: Exclude<keyof CheckoutForm, 'custom_fields' | 'custom_field_types'>;
  wire: string;
  label: string;
  autocomplete: string;
}[] = [
  { key: 'line1', wire: 'line1', label: 'Address', autocomplete: 'address-line1' },
  { key: 'line2', wire: 'line2', label: 'Address line 2', autocomplete: 'address-line2' },
  { key: 'postal_code', wire: 'postal_code', label: 'Postal code', autocomplete: 'postal-code' },
  { key: 'city', wire: 'city', label: 'City', autocomplete: 'address-level2' },
  { key: 'state', wire: 'state', label: 'State / region', autocomplete: 'address-level1' },
  { key: 'country', wire: 'country', label: 'Country (two letters, e.g. US)', autocomplete: 'country' },
];

const money = (amount: number, currency: string) => formatMoney(BigInt(amount), currency);

/** The checkout's total as it recurs ("$49.00 / month"; just the amount for a one-time product). */
const recurringTotal = (checkout: PublicCheckout) =>
  formatRecurringPrice(
    BigInt(checkout.total_amount),
    checkout.currency,
    checkout.product?.recurring_interval,
    checkout.product?.recurring_interval_count,
  );

/** The pay button's words: Polar's "Start trial", "Subscribe", "Pay". */
export function payLabel(checkout: PublicCheckout): string {
  if (checkout.active_trial_interval) return 'Start trial';
  if (checkout.product?.recurring_interval) return 'Subscribe';
  return checkout.total_amount > 0 ? 'Pay' : 'Get it free';
}

function priceSummary(checkout: PublicCheckout): SafeHtml {
  const { currency } = checkout;
  const trial = checkout.active_trial_interval
    ? html`<p class="notice" role="status">Free for ${checkout.active_trial_interval_count} ${checkout.active_trial_interval}${checkout.active_trial_interval_count > 1 ? 's' : ''}, then ${recurringTotal(checkout)}. Your card is saved, not charged today.</p>`
    : null;
  const taxed = Number(checkout.tax_amount ?? 0) !== 0;
  return html`<table class="lines"><tbody>
<tr><td>Subtotal</td><td data-amount="subtotal">${money(checkout.amount, currency)}</td></tr>
${checkout.discount_amount > 0 ? html`<tr><td>Discount${checkout.discount ? html` (${checkout.discount.name})` : null}</td><td data-amount="discount">−${money(checkout.discount_amount, currency)}</td></tr>` : null}
${taxed ? html`<tr><td>Net</td><td data-amount="net">${money(checkout.net_amount, currency)}</td></tr>` : null}
${taxed ? taxRows(checkout).map(([label, amount]) => html`<tr><td>${label}</td><td data-amount="tax">${money(amount, currency)}</td></tr>`) : null}
${checkout.tax_amount == null ? html`<tr><td>Tax</td><td data-amount="tax" class="muted">with your billing address</td></tr>` : null}
<tr class="total"><td>${checkout.active_trial_interval ? 'Due after the trial' : 'Total'}</td><td data-amount="total">${recurringTotal(checkout)}</td></tr>
</tbody></table>${isReverseCharged(checkout.tax_breakdown ?? []) ? html`<p class="muted" data-reverse-charge>${REVERSE_CHARGE_MENTION}</p>` : null}${trial}`;
}

/** The tax as rows: one per rate charged ("VAT 19 %"), or one "Tax" row when the rates do not say it all. */
function taxRows(checkout: PublicCheckout): [string, number][] {
  const tax = Number(checkout.tax_amount);
  const lines = taxLinesOf(checkout.tax_breakdown ?? [], BigInt(tax));
  return lines ? lines.map(line => [line.label, Number(line.amount)]) : [['Tax', tax]];
}

function input(
  id: string,
  name: string,
  label: string,
  value: string | null | undefined,
  options: { type?: string; required?: boolean; autocomplete?: string; placeholder?: string; list?: string } = {},
): SafeHtml {
  return html`<div class="field"><label for="${id}">${label}${options.required ? null : html` <span class="muted">(optional)</span>`}</label><input id="${id}" type="${options.type ?? 'text'}" name="${name}" value="${value ?? ''}"${options.required ? html` required` : null}${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : null}${options.placeholder ? html` placeholder="${options.placeholder}"` : null}${options.list ? html` list="${options.list}"` : null}></div>`;
}

/** What a buyer reads where the card field would be when this service cannot take their card. */
export const CANNOT_TAKE_PAYMENTS = 'This seller cannot take payments yet, so this purchase cannot be completed here.';

/** Whether the page can take the card this checkout needs (always, when it needs none). */
export function canTakeCard(checkout: PublicCheckout, cardEntry: CardEntry, stripe?: StripeJsSettings | null): boolean {
  if (!checkout.is_payment_form_required) return true;
  return cardEntry === 'test' || (cardEntry === 'stripe' && !!stripe);
}

function cardField(checkout: PublicCheckout, cardEntry: CardEntry, stripe?: StripeJsSettings | null): SafeHtml | null {
  if (!checkout.is_payment_form_required) return null;
  if (cardEntry === 'test')
    return html`<div class="field"><label for="card">Card (test payment method)</label><input id="card" type="text" name="confirmation_token_id" required list="test-cards" placeholder="pm_card_visa" autocomplete="off">
<datalist id="test-cards">${TEST_PAYMENT_METHODS.map(m => html`<option value="${m}"></option>`)}</datalist>
<span class="muted">Test mode: no real card. Use <code>pm_card_visa</code> to pay, <code>pm_card_chargeDeclined</code> to see a decline.</span></div>`;
  if (cardEntry === 'stripe' && stripe)
    return stripeCardField({
      stripe,
      ...elementsModeOf(checkout),
      amount: Number(checkout.total_amount ?? 0),
      currency: checkout.currency,
    });
  return html`<div class="warning" role="note">${CANNOT_TAKE_PAYMENTS}</div>`;
}

export interface CheckoutBodyOptions {
  checkout: PublicCheckout;
  csrfToken: string;
  cardEntry: CardEntry;
  /** Stripe.js settings, when `cardEntry` is `stripe` and a publishable key is configured. */
  stripe?: StripeJsSettings | null;
  form?: CheckoutForm;
  error?: string | null;
  /** The confirm's refusal of a custom field answer, by slug, shown beside the field. */
  fieldErrors?: Record<string, string>;
}

/** The hosted checkout's form: one POST, `action=pay` (the main button) or `action=update` (apply a code, change product). */
export function checkoutBody({
  checkout,
  csrfToken,
  cardEntry,
  stripe,
  form,
  error,
  fieldErrors,
}: CheckoutBodyOptions): SafeHtml {
  const f: CheckoutForm = form ?? {
    customer_email: checkout.customer_email ?? '',
    customer_name: checkout.customer_name ?? '',
    discount_code: checkout.discount?.code ?? '',
    product_id: checkout.product_id,
    customer_tax_id: checkout.customer_tax_id ?? '',
    ...Object.fromEntries(ADDRESS_FIELDS.map(a => [a.key, checkout.customer_billing_address?.[a.wire] ?? ''])),
  };
  const questions = attachedFieldsOf(checkout);
  const held = (checkout.custom_field_data ?? {}) as Record<string, unknown>;
  const answers =
    form?.custom_fields ??
    Object.fromEntries(
      questions.map(q => [q.custom_field.slug, shownAnswer(q.custom_field.type, held[q.custom_field.slug])]),
    );
  const product = checkout.product as Record<string, any> | null;
  const products = (checkout.products ?? []) as Record<string, any>[];
  const action = `/checkout/${checkout.client_secret}`;
  const fields = (checkout.billing_address_fields ?? {}) as Record<string, string>;
  const address = ADDRESS_FIELDS.filter(a => fields[a.wire] && fields[a.wire] !== 'disabled');
  const choice =
    products.length > 1
      ? html`<fieldset><legend>Choose</legend>${products.map(p => html`<label class="check"><input type="radio" name="product_id" value="${p.id}"${p.id === f.product_id ? html` checked` : null}> ${p.name}</label>`)}<div><button type="submit" name="action" value="update" class="secondary" data-skip-card>Update</button></div></fieldset>`
      : null;
  const discount = checkout.allow_discount_codes
    ? html`<div class="row">${input('discount', 'discount_code', 'Discount code', f.discount_code, { autocomplete: 'off' })}<div><button type="submit" name="action" value="update" class="secondary" data-skip-card>Apply</button></div></div>`
    : null;
  return html`<h1>${product?.name ?? 'Checkout'}</h1>
${product?.description ? html`<p class="muted">${product.description}</p>` : null}
<div class="card">
${errorBox(error)}
${priceSummary(checkout)}
<form class="stack" method="post" action="${action}">
${csrfField(csrfToken)}
<button type="submit" name="action" value="pay" hidden tabindex="-1" aria-hidden="true"></button>
${choice}
${input('email', 'customer_email', 'E-mail', f.customer_email, { type: 'email', required: true, autocomplete: 'email' })}
${input('name', 'customer_name', 'Name', f.customer_name, { autocomplete: 'name', required: false })}
${address.length ? html`<fieldset><legend>Billing address</legend><div class="stack">${address.map(a => input(`address-${a.key}`, a.key, a.label, f[a.key], { required: fields[a.wire] === 'required', autocomplete: a.autocomplete }))}${input('tax-id', 'customer_tax_id', 'Tax ID (VAT number, for a business)', f.customer_tax_id, { autocomplete: 'off' })}</div></fieldset>` : null}
${customFieldsFieldset(questions, answers, fieldErrors ?? {})}
${discount}
${cardField(checkout, cardEntry, stripe)}
<div><button type="submit" name="action" value="pay" class="pay"${canTakeCard(checkout, cardEntry, stripe) ? null : html` disabled`}>${payLabel(checkout)}</button></div>
</form>
</div>
${checkout.return_url ? html`<p><a href="${checkout.return_url}">← Back</a></p>` : null}`;
}

/** A checkout that cannot be completed any more, or is done: a heading, a message, perhaps a link. */
export function checkoutMessageBody(title: string, message: string, link?: { href: string; text: string }): SafeHtml {
  return html`<h1>${title}</h1><div class="card"><p>${message}</p>${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : null}</div>`;
}

/**
 * Whether a confirmation e-mail is sent depends on the seller's `customer_email_settings`, on SMTP being
 * configured and, in the sandbox, on the address being a member's (docs/email.md): the page promises only
 * where one would go.
 */
const receiptNote = (email: string) => `If the seller sends a confirmation e-mail, it goes to ${email}.`;

/** After a successful purchase (the default success page). */
export function checkoutSucceededBody(checkout: PublicCheckout): SafeHtml {
  const product = checkout.product as Record<string, any> | null;
  const what = checkout.active_trial_interval
    ? 'Your trial has started.'
    : product?.recurring_interval
      ? 'Your subscription is active.'
      : 'Your order is complete.';
  return html`<h1>Thank you!</h1><div class="card" data-status="succeeded"><p>${what}</p>
<p><strong>${product?.name ?? ''}</strong>: ${recurringTotal(checkout)}</p>
${checkout.customer_email ? html`<p class="muted">${receiptNote(checkout.customer_email)}</p>` : null}</div>`;
}
