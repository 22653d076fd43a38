/**
 * What a page that mounts Stripe.js needs: the publishable key, where Stripe.js is, and the CSP sources
 * it asks for. Only the card pages (hosted checkout, the portal's add-payment-method and confirm-payment
 * pages, the next-action page) send this CSP; every other page allows no script at all
 * (docs/web-pages.md).
 */
export interface StripeJsSettings {
  /** `pk_live_…` / `pk_test_…` (STRIPE_PUBLISHABLE_KEY). */
  publishableKey: string;
  /** STRIPE_JS_URL: `https://js.stripe.com/v3/`, or a fake on loopback in tests. */
  stripeJsUrl: string;
}

/** Origins one page may load scripts from, frame, and connect to, beyond its own scripts. */
export interface CspAllowance {
  script: string[];
  frame: string[];
  connect: string[];
}

const STRIPE_JS_HOSTS = new Set(['js.stripe.com']);

/**
 * The sources Stripe.js needs: its script (js.stripe.com and its versioned subdomains), the Payment
 * Element's and 3-D Secure's frames (js.stripe.com, hooks.stripe.com) and its API (api.stripe.com), as
 * Stripe's security guide lists them. Stripe.js from anywhere else (a fake in tests, a rehearsal) is
 * allowed that one origin for all three, and nothing of Stripe's.
 */
export function stripeJsCsp(stripeJsUrl: string): CspAllowance {
  const url = new URL(stripeJsUrl);
  if (url.protocol === 'https:' && STRIPE_JS_HOSTS.has(url.hostname))
    return {
      script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
      frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
      connect: ['https://api.stripe.com'],
    };
  return { script: [url.origin], frame: [url.origin], connect: [url.origin] };
}

/** The page's CSP: none of the kit's pages runs a script unless `allow` says which. */
export function contentSecurityPolicy(allow?: CspAllowance): string {
  const base = "style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";
  if (!allow) return `default-src 'none'; ${base}`;
  return [
    "default-src 'none'",
    `script-src 'self' ${allow.script.join(' ')}`,
    `frame-src ${allow.frame.join(' ')}`,
    `connect-src ${allow.connect.join(' ')}`,
    base,
  ].join('; ');
}

/** The settings from configuration: none without a publishable key. */
export function stripeJsFromConfig(config: {
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_JS_URL: string;
}): StripeJsSettings | null {
  return config.STRIPE_PUBLISHABLE_KEY
    ? { publishableKey: config.STRIPE_PUBLISHABLE_KEY, stripeJsUrl: config.STRIPE_JS_URL }
    : null;
}
