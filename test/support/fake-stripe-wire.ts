import { randomBytes } from 'node:crypto';
import type http from 'node:http';

/** Stripe's wire format as the fake speaks it: form-encoded requests, JSON objects and error bodies. */
export type Json = Record<string, any>;

/** Stripe's 400 `resource_missing` for an id it does not know. */
export function missing(
  p: Json,
  param = p.confirmation_token ? 'confirmation_token' : 'payment_method',
): [number, Json] {
  const kind = {
    payment_method: 'PaymentMethod',
    confirmation_token: 'ConfirmationToken',
    payment_intent: 'PaymentIntent',
  }[param];
  return [
    400,
    {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param,
        message: `No such ${kind ?? param}: '${p[param]}'`,
        doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
      },
    },
  ];
}

/** Stripe's 404 for a path it does not serve. */
export function notFound(path: string): [number, Json] {
  return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${path}).` } }];
}

/** A stored payment method as Stripe shows it (without the fake's own test name). */
export function publicOf(method: Json): Json {
  const { __test_name: _ignored, ...rest } = method;
  return rest;
}

export function expands(p: Json, field: string): boolean {
  const expand = p.expand;
  return Array.isArray(expand) ? expand.includes(field) : Object.values(expand ?? {}).includes(field);
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function id(): string {
  return randomBytes(12).toString('hex');
}

export function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** Stripe's form encoding (`a[b]=1`, `expand[0]=x`) back into objects; indexed keys stay objects. */
export function parseForm(raw: string): Json {
  const out: Json = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const path = name.replace(/\]/g, '').split('[');
    let node = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  return out;
}
