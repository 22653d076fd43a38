import { html, type SafeHtml } from '../../web-kit/html.js';

// The hosted checkout's questions: the selected product's custom fields (docs/custom-fields.md), one form
// control per field, named `cf:<slug>` with a hidden `cf_type:<slug>` telling the form reader its type.

/** One of the checkout's `attached_custom_fields`, as the client endpoints answer it. */
export interface AttachedField {
  required: boolean;
  order?: number;
  custom_field: { slug: string; name: string; type: string; properties?: Record<string, any> };
}

/** The checkout's questions, in the product's order. */
export function attachedFieldsOf(checkout: { attached_custom_fields?: unknown }): AttachedField[] {
  const attached = (checkout.attached_custom_fields ?? []) as AttachedField[];
  return [...attached].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/** An answer the checkout holds, as the form shows it ('' for none). */
export function shownAnswer(type: string, value: unknown): string {
  if (value == null) return '';
  if (type === 'checkbox') return value === true ? 'true' : '';
  if (type === 'date') return String(value).slice(0, 10);
  return String(value);
}

/** A Unix timestamp bound as a date input's `min`/`max` (YYYY-MM-DD, UTC). */
const dayOf = (seconds: unknown) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString().slice(0, 10) : null;

/**
 * The questions as a fieldset: each with its label (`form_label`, else the name), its help text, the
 * bounds the browser can check, `required` where the product requires it, and the confirm's refusal for
 * that field beside it (`errors`, by slug).
 */
export function customFieldsFieldset(
  fields: AttachedField[],
  answers: Record<string, string>,
  errors: Record<string, string>,
): SafeHtml | null {
  if (!fields.length) return null;
  return html`<fieldset data-custom-fields><legend>Details</legend><div class="stack">${fields.map(f => customFieldControl(f, answers[f.custom_field.slug] ?? '', errors[f.custom_field.slug]))}</div></fieldset>`;
}

function customFieldControl(attached: AttachedField, value: string, error: string | undefined): SafeHtml {
  const { slug, name, type } = attached.custom_field;
  const p = attached.custom_field.properties ?? {};
  const id = `cf-${slug}`;
  const label = p.form_label ?? name;
  const required = attached.required ? html` required` : null;
  const invalid = error ? html` aria-invalid="true" aria-describedby="${id}-error"` : null;
  const placeholder = p.form_placeholder ? html` placeholder="${p.form_placeholder}"` : null;
  const optional = attached.required ? null : html` <span class="muted">(optional)</span>`;
  const typeField = html`<input type="hidden" name="cf_type:${slug}" value="${type}">`;
  const help = p.form_help_text ? html`<span class="muted">${p.form_help_text}</span>` : null;
  const problem = error ? html`<span class="field-error" id="${id}-error" role="alert">${error}</span>` : null;
  let control: SafeHtml;
  switch (type) {
    case 'checkbox':
      return html`<div class="field">${typeField}<label class="check"><input id="${id}" type="checkbox" name="cf:${slug}" value="true"${value === 'true' ? html` checked` : null}${required}${invalid}> ${label}${optional}</label>${help}${problem}</div>`;
    case 'select':
      control = html`<select id="${id}" name="cf:${slug}"${required}${invalid}><option value="">Choose…</option>${((p.options ?? []) as { value: string; label: string }[]).map(o => html`<option value="${o.value}"${o.value === value ? html` selected` : null}>${o.label}</option>`)}</select>`;
      break;
    case 'number':
      control = html`<input id="${id}" type="number" step="1" name="cf:${slug}" value="${value}"${p.ge != null ? html` min="${String(p.ge)}"` : null}${p.le != null ? html` max="${String(p.le)}"` : null}${placeholder}${required}${invalid}>`;
      break;
    case 'date':
      control = html`<input id="${id}" type="date" name="cf:${slug}" value="${value}"${dayOf(p.ge) ? html` min="${dayOf(p.ge)}"` : null}${dayOf(p.le) ? html` max="${dayOf(p.le)}"` : null}${required}${invalid}>`;
      break;
    default: {
      const bounds = html`${p.min_length != null ? html` minlength="${String(p.min_length)}"` : null}${p.max_length != null ? html` maxlength="${String(p.max_length)}"` : null}`;
      control = p.textarea
        ? html`<textarea id="${id}" name="cf:${slug}"${bounds}${placeholder}${required}${invalid}>${value}</textarea>`
        : html`<input id="${id}" type="text" name="cf:${slug}" value="${value}"${bounds}${placeholder}${required}${invalid}>`;
    }
  }
  return html`<div class="field">${typeField}<label for="${id}">${label}${optional}</label>${control}${help}${problem}</div>`;
}
