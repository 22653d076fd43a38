import type { Express } from 'express';
import { startOAuthStack, type OAuthStack } from '../oauth/support.js';

/**
 * /openapi.json documents exactly what the running app serves: every route Express has (the app's
 * own, the route table's, and those of the mounted OAuth and web routers) is an operation of the
 * document or one of the HTML pages below, and every operation of the document is served.
 */
jest.setTimeout(60_000);

/**
 * Pages for a person in a browser, not operations for a program: HTML answers and CSRF-protected form
 * posts (rest-adapter/web, the consent form of rest-adapter/oauth) and the docs page itself. The
 * authorization endpoint is a page too, but clients build its URL, so the document describes it.
 */
const HTML_PAGES = [
  'GET /sandbox/payment-challenge',
  'POST /sandbox/payment-challenge',
  'GET /login',
  'POST /login',
  'GET /signup',
  'POST /signup',
  'POST /logout',
  'GET /settings',
  'POST /settings/organizations',
  'GET /settings/organizations/{id}',
  'POST /settings/organizations/{id}/tokens',
  'POST /settings/organizations/{id}/tokens/{tokenId}/revoke',
  'POST /oauth2/consent',
  // The hosted checkout (a checkout's `url`) and a checkout link's public redirect, which Polar also
  // leaves out of its schema: a browser follows them, no program calls them.
  'GET /checkout/{clientSecret}',
  'POST /checkout/{clientSecret}',
  'GET /checkout/{clientSecret}/confirmation',
  'GET /v1/checkout-links/{clientSecret}/redirect',
  'POST /v1/oauth2/consent',
  'GET /docs',
  'GET /docs/assets/{file}',
  // The docs page's slices of a version's document, one tag each (the page draws one tag at a time).
  'GET /docs/openapi/{version}/{file}',
  // The GraphQL explorer's files (GraphiQL, React, its own script): what `GET /graphql` loads in a browser.
  'GET /graphql/assets/{file}',
  // The card pages' own scripts (rest-adapter/web/card-entry): files a page loads, not operations.
  'GET /assets/{file}',
  // The customer portal's entry (`customer_portal_url`); its pages under /portal/{slug}/ are a mounted
  // router of HTML pages and form posts (rest-adapter/web/portal), which this walk does not enter.
  'GET /portal',
  // The sandbox's mail page (docs/email.md#sandbox), the HTML view of `GET /v1/sandbox/emails/`.
  'GET /sandbox/emails',
  // The merchant dashboard's organization picker and its chart files (docs/dashboard.md); its sections under
  // /dashboard/{organizationId}/ are a mounted router of HTML pages and form posts, which this walk does not enter.
  'GET /dashboard',
  'GET /dashboard/assets/{file}',
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every `METHOD /path` of the Express 5 router stack, mounted routers included; `ALL /path` for `router.all`. */
function routesOf(stack: Layer[]): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        const documented = path.replace(/:(\w+)/g, '{$1}');
        if (layer.route.methods._all) out.push(`ALL ${documented}`);
        for (const method of Object.keys(layer.route.methods).filter(m => m !== '_all'))
          out.push(`${method.toUpperCase()} ${documented}`);
      }
    } else if (layer.handle?.stack) {
      // A router mounted with app.use(router): its routes are at the same paths (nothing here mounts at a prefix).
      out.push(...routesOf(layer.handle.stack));
    }
  }
  return out;
}

/** The methods a `router.all` route really answers: every one but those it refuses with 405. */
async function methodsAnswered(base: string, path: string): Promise<string[]> {
  const answered: string[] = [];
  for (const method of METHODS) {
    const response = await fetch(`${base}${path}`, { method: method.toUpperCase() });
    await response.arrayBuffer();
    if (response.status !== 405) answered.push(method.toUpperCase());
  }
  return answered;
}

/** What one running environment serves, and the document it serves. */
async function surveyOf(stack: OAuthStack): Promise<{ served: string[]; documented: string[]; document: any }> {
  const app = stack.environment.app as Express & { router: { stack: Layer[] } };
  const served: string[] = [];
  for (const route of routesOf(app.router.stack)) {
    if (!route.startsWith('ALL ')) served.push(route);
    else {
      const path = route.slice(4);
      for (const method of await methodsAnswered(stack.base, path)) served.push(`${method} ${path}`);
    }
  }
  const response = await fetch(`${stack.base}/openapi.json`);
  expect(response.status).toBe(200);
  const document: any = await response.json();
  const documented = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, item]) =>
    METHODS.filter(m => item[m]).map(m => `${m.toUpperCase()} ${path}`),
  );
  return { served: [...new Set(served)].sort(), documented: documented.sort(), document };
}

// Both environments: the sandbox may serve more (its test clock, for one), and that must be documented too.
describe.each(['production', 'sandbox'] as const)('the OpenAPI document and the routes %s serves', environment => {
  let stack: OAuthStack;
  let served: string[];
  let documented: string[];
  let document: any;

  beforeAll(async () => {
    stack = await startOAuthStack(`openapi_coverage_${environment}`, environment);
    ({ served, documented, document } = await surveyOf(stack));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('finds the routes of the app, the route table and the mounted routers', () => {
    // The walk itself must see each kind, or the comparison below would prove nothing.
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /healthz',
        'GET /v1/products/',
        'PATCH /v1/subscriptions/{id}',
        'POST /v1/oauth2/token',
        'GET /v1/oauth2/userinfo',
        'POST /v1/oauth2/userinfo',
        'GET /login',
      ]),
    );
    expect(served).not.toContain('PUT /v1/oauth2/userinfo');
  });

  it('documents every route served, except the listed HTML pages', () => {
    const missing = served.filter(route => !documented.includes(route) && !HTML_PAGES.includes(route));
    expect(missing).toEqual([]);
  });

  it('serves every operation it documents, and every excluded page exists', () => {
    expect(documented.filter(route => !served.includes(route))).toEqual([]);
    expect(HTML_PAGES.filter(page => !served.includes(page))).toEqual([]);
    expect(documented.filter(route => HTML_PAGES.includes(route))).toEqual([]);
  });

  it('names this server and its OAuth endpoints with the public URL', () => {
    expect(document.servers).toEqual([{ url: stack.base }]);
    const flow = document.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe(`${stack.base}/oauth2/authorize`);
    expect(flow.tokenUrl).toBe(`${stack.base}/v1/oauth2/token`);
  });
});
