import { createRequire } from 'node:module';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import express, { type Request, type Response } from 'express';
import { type StaticBody, staticBody } from '../web-kit/compressed.js';
import { escapeHtml } from '../web-kit/html.js';
import { EXPLORER_SCRIPT, EXPLORER_STYLESHEET, TOKEN_PLACEHOLDER } from './explorer-assets.js';

/**
 * `GET /graphql` in a browser: GraphiQL 3 (its UMD bundle, over React 18's UMD builds, all served from
 * node_modules by this process: no CDN) posting to `POST /graphql`. A request that does not prefer HTML
 * (a program) passes on to the API's own answer. Its CSP allows this origin's scripts, styles and
 * connections only, plus the `data:` fonts and images GraphiQL's stylesheet embeds (docs/graphql.md#the-explorer).
 */

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/** The files the page loads, by the name it asks for: nothing else of these packages is served. */
const PACKAGE_FILES: Record<string, { dir: string; file: string }> = {
  'react.js': { dir: 'react', file: 'umd/react.production.min.js' },
  'react-dom.js': { dir: 'react-dom', file: 'umd/react-dom.production.min.js' },
  'graphiql.js': { dir: 'graphiql', file: 'graphiql.min.js' },
  'graphiql.css': { dir: 'graphiql', file: 'graphiql.min.css' },
};
const OWN_FILES: Record<string, { type: string; body: string }> = {
  'explorer.js': { type: 'text/javascript', body: EXPLORER_SCRIPT },
  'explorer.css': { type: 'text/css', body: EXPLORER_STYLESHEET },
};

export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Ask every time (a 304 while the ETag holds): the page changes with a deploy. */
const REVALIDATE = 'no-cache';
/** The bundles change only with a deploy; an hour saves GraphiQL's 3.5 MB (about 0.5 MB compressed) per visit. */
const ASSET_CACHE = 'public, max-age=3600';

/** What the query editor holds on a first visit: it runs with any token of an organization or user. */
export const DEFAULT_QUERY = `# Token: in the Headers tab below. Run: Ctrl-Enter.
{
  organizations(limit: 5) {
    items { id name slug }
    pagination { totalCount maxPage }
  }
}
`;

export function renderExplorerPage(environment: 'production' | 'sandbox'): string {
  const where = environment === 'sandbox' ? 'Sandbox' : 'Production';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphQL explorer (${where})</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/graphql/assets/graphiql.css">
<link rel="stylesheet" href="/graphql/assets/explorer.css">
</head><body>
<header class="explorer-header"><strong>GraphQL explorer</strong><span>${where}</span>
<a href="/docs">REST reference</a><a href="/settings">Tokens</a>
<p class="explorer-help" id="token-help">Queries run as <code>POST /graphql</code> with the headers of the
<em>Headers</em> tab: <code>{"Authorization": "Bearer &lt;token&gt;"}</code>, an organization access token
(<code>polar_oat_…</code>) or a personal one, made under <a href="/settings">settings</a>. Add
<code>"Polar-Organization": "&lt;organization id&gt;"</code> (optional) to narrow a personal or OAuth token to
one organization. Left as <code>Bearer ${TOKEN_PLACEHOLDER}</code>, no token is sent: you query as yourself
when signed in here, anonymously otherwise.</p></header>
<div id="no-script"><p>The explorer needs JavaScript. Without it, send queries as
<code>POST /graphql</code> with <code>Content-Type: application/json</code> and a body
<code>{"query": "…", "variables": {…}}</code>.</p></div>
<div id="graphiql" data-default-query="${escapeHtml(DEFAULT_QUERY)}"></div>
<script src="/graphql/assets/react.js"></script>
<script src="/graphql/assets/react-dom.js"></script>
<script src="/graphql/assets/graphiql.js"></script>
<script src="/graphql/assets/explorer.js"></script>
</body></html>
`;
}

function pageHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': EXPLORER_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
}

/** A browser asks for HTML first; a program (`Accept: application/json`, `*\/*` or none) does not. */
const wantsHtml = (req: Request) => req.accepts(['application/json', 'text/html']) === 'text/html';

/** GET /graphql for a browser, and GET /graphql/assets/<file>. */
export function graphqlExplorerRouter(environment: 'production' | 'sandbox'): express.Router {
  const router = express.Router();
  const page = staticBody(() => renderExplorerPage(environment), { type: 'html', cacheControl: REVALIDATE });
  const assets = new Map<string, StaticBody>();
  const assetBody = (file: string): StaticBody => {
    let body = assets.get(file);
    if (!body) {
      const own = OWN_FILES[file];
      const packaged = PACKAGE_FILES[file];
      body = own
        ? staticBody(() => own.body, { type: own.type, cacheControl: ASSET_CACHE })
        : staticBody(() => readFileSync(path.join(packageDir(packaged.dir), packaged.file)), {
            type: path.extname(file),
            cacheControl: ASSET_CACHE,
          });
      assets.set(file, body);
    }
    return body;
  };
  router.get('/graphql', async (req, res, next) => {
    res.vary('Accept');
    if (!wantsHtml(req)) return next();
    pageHeaders(res);
    await page.send(req, res);
  });
  router.get('/graphql/assets/:file', async (req, res, next) => {
    const file = req.params.file;
    if (!OWN_FILES[file] && !PACKAGE_FILES[file]) return next();
    pageHeaders(res);
    await assetBody(file).send(req, res);
  });
  return router;
}
