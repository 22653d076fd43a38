import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Response } from 'express';
import { type StaticBody, staticBody } from '../../web-kit/compressed.js';
import { escapeHtml } from '../../web-kit/html.js';
import { API_VERSIONS, type ApiVersion, CURRENT_API_VERSION, isApiVersion } from '../versions/api-versions.js';
import { openApiForVersion } from '../versions/versioned-openapi.js';
import { DOCS_SCRIPT, DOCS_STYLESHEET } from './docs-assets.js';
import { documentTags, tagDocument } from './docs-tags.js';

/**
 * `/docs`: Swagger UI (the `swagger-ui-dist` package, served from this process: no CDN) over
 * the OpenAPI document of an API version (a picker, the newest version first: docs/api-versions.md),
 * with search, schemas and "Try it out" with a token. Its own CSP allows scripts and styles of this
 * origin only; the page itself lists the operations, shown until Swagger UI has drawn its own (and for good
 * without JavaScript). It draws one tag at a time
 * (`/docs?tag=…&version=…`, from `/docs/openapi/<version>/<tag>.json`; `all` is the version's whole
 * document, `/<version>/openapi.json`), and everything it loads is sent compressed with an ETag
 * (docs/performance.md#the-docs-page).
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
  const tags = documentTags(document);
  const tagLinks = [
    ...tags.map(
      t =>
        `<a href="/docs?tag=${encodeURIComponent(t.name)}" data-tag="${escapeHtml(t.name)}">${escapeHtml(t.name)} <span>${t.operations}</span></a>`,
    ),
    `<a href="/docs?tag=all" data-tag="all">all operations <span>${rows.length}</span></a>`,
  ];
  const title = escapeHtml(document.info.title);
  const versionOptions = API_VERSIONS.map(
    v => `<option value="${v}"${v === CURRENT_API_VERSION ? ' selected' : ''}>${v}</option>`,
  ).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head><body>
<nav class="docs-header"><strong>API reference</strong>
<label>API version <select id="docs-version" data-current="${CURRENT_API_VERSION}">${versionOptions}</select></label>
<a href="/openapi.json">OpenAPI document</a>
<span>GraphQL: <code>POST /graphql</code> with the same token</span>
<span>Tokens: <a href="/settings">settings</a></span></nav>
<nav class="docs-tags" aria-label="Tags" data-first-tag="${escapeHtml(tags[0]?.name ?? 'all')}">${tagLinks.join('')}</nav>
<div id="no-script"><h1>${title}</h1><p>${markdownCode(document.info.description ?? '')}</p>
<p>The operations of this version. Their parameters, bodies and responses are in
<a href="/openapi.json">/openapi.json</a>; with JavaScript on, the interactive reference replaces this list once it is drawn.</p>
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

/** One document per version and tag, encoded on first use. */
function tagBodies(openapi: () => Record<string, any>): (version: ApiVersion, tag: string) => StaticBody | null {
  const bodies = new Map<string, StaticBody | null>();
  return (version, tag) => {
    const key = `${version}/${tag}`;
    if (!bodies.has(key)) {
      const document = tagDocument(openApiForVersion(openapi(), version), tag);
      bodies.set(
        key,
        document
          ? staticBody(() => JSON.stringify(document), { type: 'application/json', cacheControl: REVALIDATE })
          : null,
      );
    }
    return bodies.get(key)!;
  };
}

/** Ask every time, answered 304 while the ETag holds: the document changes with a deploy, not a clock. */
export const REVALIDATE = 'no-cache';
/** swagger-ui-dist's files and ours change only with a deploy; an hour saves the 1.5 MB bundle per visit. */
const ASSET_CACHE = 'public, max-age=3600';

/** GET /docs, /docs/openapi/<version>/<tag>.json and /docs/assets/<file>. */
export function docsRouter(page: () => string, openapi: () => Record<string, any>): express.Router {
  const router = express.Router();
  const pageBody = staticBody(page, { type: 'html', cacheControl: REVALIDATE });
  const tagBody = tagBodies(openapi);
  const assets = new Map<string, StaticBody>();
  const assetBody = (file: string): StaticBody => {
    let body = assets.get(file);
    if (!body) {
      const own = OWN_FILES[file];
      body = own
        ? staticBody(() => own.body, { type: own.type, cacheControl: ASSET_CACHE })
        : staticBody(() => readFileSync(path.join(SWAGGER_DIR, file)), {
            type: path.extname(file),
            cacheControl: ASSET_CACHE,
          });
      assets.set(file, body);
    }
    return body;
  };
  router.get('/docs', async (req, res) => {
    pageHeaders(res);
    await pageBody.send(req, res);
  });
  router.get('/docs/openapi/:version/:file', async (req, res, next) => {
    const match = /^(.+)\.json$/.exec(req.params.file);
    const version = req.params.version;
    const body = match && isApiVersion(version) ? tagBody(version, match[1]) : null;
    if (!body) return next();
    await body.send(req, res);
  });
  router.get('/docs/assets/:file', async (req, res, next) => {
    const file = req.params.file;
    if (!OWN_FILES[file] && !SWAGGER_FILES.has(file)) return next();
    pageHeaders(res);
    await assetBody(file).send(req, res);
  });
  return router;
}
