/**
 * HTML that is safe by construction: the `html` tag escapes every interpolated value unless it is
 * already `SafeHtml` (the result of another `html` template, or `rawHtml` for trusted constants).
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, c => ESCAPES[c]);
}

/** Values the `html` tag accepts: text (escaped), SafeHtml (as is), arrays of either, or nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value);
}

/** `html\`<p>${name}</p>\`` → SafeHtml with `name` escaped. `false`/`null`/`undefined` render as nothing. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Marks a trusted constant (never user input) as HTML. */
export function rawHtml(value: string): SafeHtml {
  return new SafeHtml(value);
}

/** Anything accepted where a page fragment is expected: SafeHtml, or text (escaped). */
export function toHtml(value: HtmlValue): SafeHtml {
  return new SafeHtml(render(value));
}
