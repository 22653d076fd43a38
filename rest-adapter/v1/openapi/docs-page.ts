import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Response } from 'express';
import { escapeHtml } from '../../web-kit/html.js';
import { DOCS_SCRIPT, DOCS_STYLESHEET } from './docs-assets.js';

/**
 * `/docs`: Swagger UI (the `swagger-ui-dist` package, served from this process: no CDN) over
 * /openapi.json, with search, schemas and "Try it out" with a token. Its own CSP allows scripts and
 * styles of this origin only; without JavaScript the page lists the operations.
 */

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The files of swagger-ui-dist the page uses (no directory listing, no other file of the package). */
const SWAGGER_FILES = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'oauth2-redirect.html',
  'oauth2-redirect.js',
  'favicon-16x16.png',
  'favicon-32x32.png',
]);
const OWN_FILES: Record<string, { type: string; body: string }> = {
  'docs.js': { type: 'text/javascript', body: DOCS_SCRIPT },
  'docs.css': { type: 'text/css', body: DOCS_STYLESHEET },
};

export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Shows Markdown's `code` spans as <code>, everything escaped by the web kit's one escaping function. */
const markdownCode = (text: string) =>
  text
    .split(/(`[^`]+`)/)
    .map(part => (/^`[^`]+`$/.test(part) ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part)))
    .join('');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The /docs page for an OpenAPI document. */
export function renderDocsPage(document: Record<string, any>): string {
  const rows: string[] = [];
  for (const [route, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(route)}</code></td>` +
          `<td>${escapeHtml(op.summary ?? '')}</td><td><code>${escapeHtml(op.operationId)}</code></td></tr>`,
      );
    }
  }
  const title = escapeHtml(document.info.title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head><body>
<nav class="docs-header"><strong>API reference</strong>
<a href="/openapi.json">OpenAPI document</a>
<span>GraphQL: <code>POST /graphql</code> with the same token</span>
<span>Tokens: <a href="/settings">settings</a></span></nav>
<div id="no-script"><h1>${title}</h1><p>${markdownCode(document.info.description ?? '')}</p>
<p>Without JavaScript, here is the list of operations; their parameters, bodies and responses are in
<a href="/openapi.json">/openapi.json</a>.</p>
<table><tbody>
${rows.join('\n')}
</tbody></table></div>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs.js"></script>
</body></html>
`;
}

function pageHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': DOCS_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
}

/** GET /docs and /docs/assets/<file>. */
export function docsRouter(page: () => string): express.Router {
  const router = express.Router();
  router.get('/docs', (_req, res) => {
    pageHeaders(res);
    res.type('html').send(page());
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    const own = OWN_FILES[file];
    if (!own && !SWAGGER_FILES.has(file)) {
      next();
      return;
    }
    pageHeaders(res);
    // The assets change only with a deploy; an hour saves a 1.5 MB download on every visit.
    res.set('Cache-Control', 'public, max-age=3600');
    if (own) res.type(own.type).send(own.body);
    else res.sendFile(path.join(SWAGGER_DIR, file));
  });
  return router;
}
