import type { Request } from 'express';
import type { DomainError, ValidationIssue } from '../../../kit/errors.js';
import type { CheckoutForm } from './checkout.views.js';

// The hosted checkout's form, read and turned into the client endpoints' bodies (checkout.routes.ts).

/** A refused operation as the page shows it: the status and the GraphQL error's code, message and items. */
export class OperationFailed extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ValidationIssue[],
  ) {
    super(message);
  }
}

const FIELD_LABELS: Record<string, string> = {
  customer_email: 'E-mail',
  customer_name: 'Name',
  discount_code: 'Discount code',
  confirmation_token_id: 'Card',
  customer_billing_address: 'Billing address',
  customer_tax_id: 'Tax ID',
  product_id: 'Product',
};

/** The posted form's fields the page knows. */
export function formOf(req: Request): CheckoutForm {
  const keys: (keyof CheckoutForm)[] = [
    'customer_email',
    'customer_name',
    'discount_code',
    'product_id',
    'country',
    'state',
    'city',
    'postal_code',
    'line1',
    'line2',
    'customer_tax_id',
  ];
  const form = Object.fromEntries(keys.map(k => [k, field(req, k).trim()])) as CheckoutForm;
  // The questions the page asked: each announced by its hidden `cf_type:<slug>` (custom-fields.view.ts).
  form.custom_fields = {};
  form.custom_field_types = {};
  for (const name of Object.keys((req.body as Record<string, unknown> | undefined) ?? {})) {
    if (!name.startsWith('cf_type:')) continue;
    const slug = name.slice('cf_type:'.length);
    form.custom_field_types[slug] = field(req, name);
    form.custom_fields[slug] = field(req, `cf:${slug}`).trim();
  }
  return form;
}

/**
 * The answers as `custom_field_data` (docs/custom-fields.md#answers): a checkbox is true or false, a whole
 * number a number, anything else as typed; an empty answer is left out, so a required one is the
 * confirm's `missing` at its slug. A value of the wrong shape goes as typed and the confirm's 422 says why.
 */
function customFieldData(form: CheckoutForm): Record<string, string | number | boolean> | null {
  const types = form.custom_field_types ?? {};
  const data: Record<string, string | number | boolean> = {};
  for (const [slug, type] of Object.entries(types)) {
    const value = form.custom_fields?.[slug] ?? '';
    if (type === 'checkbox') data[slug] = value === 'true';
    else if (!value) continue;
    else if (type === 'number' && /^-?\d{1,15}$/.test(value)) data[slug] = Number(value);
    else data[slug] = value;
  }
  return Object.keys(types).length ? data : null;
}

/** The confirm's refusals of custom field answers, by slug, in words for beside the field. */
export function customFieldErrorsOf(error: OperationFailed | DomainError): Record<string, string> {
  const issues =
    error instanceof OperationFailed ? error.issues : ((error.details as ValidationIssue[] | undefined) ?? []);
  const errors: Record<string, string> = {};
  for (const issue of issues)
    if (issue.loc[1] === 'custom_field_data' && issue.loc[2] != null)
      errors[String(issue.loc[2])] = issue.msg === 'Field required' ? 'This field is required.' : issue.msg;
  return errors;
}

/** The client endpoints' body for the form: empty fields are left out (unchanged), the address only when given. */
export function bodyOf(form: CheckoutForm, card: string | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (form.customer_email) body.customer_email = form.customer_email;
  if (form.customer_name) body.customer_name = form.customer_name;
  if (form.discount_code) body.discount_code = form.discount_code;
  if (form.product_id) body.product_id = form.product_id;
  if (form.customer_tax_id) body.customer_tax_id = form.customer_tax_id;
  const address = {
    line1: form.line1,
    line2: form.line2,
    postal_code: form.postal_code,
    city: form.city,
    state: form.state,
  };
  if (form.country || Object.values(address).some(Boolean))
    body.customer_billing_address = {
      country: (form.country ?? '').toUpperCase(),
      ...Object.fromEntries(Object.entries(address).map(([k, v]) => [k, v || null])),
    };
  const answers = customFieldData(form);
  if (answers) body.custom_field_data = answers;
  if (card !== null) body.confirmation_token_id = card || null;
  return body;
}

/** A refusal in words: the processor's message as it is; validation items with the field they concern. */
export function explain(error: OperationFailed | DomainError): string {
  const issues =
    error instanceof OperationFailed ? error.issues : ((error.details as ValidationIssue[] | undefined) ?? []);
  if (!issues.length) return error.message;
  return issues
    .map(issue => {
      const label = FIELD_LABELS[String(issue.loc[1])] ?? String(issue.loc[issue.loc.length - 1] ?? '');
      const text = issue.msg === 'Field required' ? 'this field is required.' : issue.msg;
      return label ? `${label}: ${text}` : text;
    })
    .join(' ');
}

/** One text field of the posted form ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
