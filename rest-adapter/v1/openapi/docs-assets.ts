/**
 * The two small files of our own that /docs serves next to swagger-ui-dist's: the script that starts
 * Swagger UI (the page's CSP allows no inline script) and the stylesheet of the page around it. They are
 * strings here so that the build, which compiles TypeScript only, ships them.
 */

/** Browser script (ES2017, no modules): loads the chosen tag's document and starts Swagger UI on it. */
export const DOCS_SCRIPT = `'use strict';
(function () {
  // Search: every word must appear in the method, path, operation id, summary, description or tag.
  // (Swagger UI's own filter matches the tag name only.)
  function opsFilter(taggedOps, phrase) {
    var words = String(phrase || '').toLowerCase().split(/\\s+/).filter(Boolean);
    if (!words.length) return taggedOps;
    return taggedOps
      .map(function (tagObj, tag) {
        return tagObj.set('operations', tagObj.get('operations').filter(function (op) {
          var operation = op.get('operation');
          var text = [tag, op.get('method'), op.get('path'), operation.get('operationId'),
            operation.get('summary'), operation.get('description')].join(' ').toLowerCase();
          return words.every(function (word) { return text.indexOf(word) >= 0; });
        }));
      })
      .filter(function (tagObj) { return tagObj.get('operations').size > 0; });
  }
  function SearchPlugin() { return { fn: { opsFilter: opsFilter } }; }

  // "Try it out" calls the server this page came from: the document names the configured public URL,
  // and the page's CSP lets it connect to its own origin only.
  function sameOrigin(url) {
    var parsed = new URL(url, window.location.origin);
    return window.location.origin + parsed.pathname + parsed.search;
  }

  // The API version's document (the picker; the newest by default), one tag at a time (the page's tag
  // links; the first tag by default), or 'all': the version's whole document.
  var params = new URLSearchParams(window.location.search);
  var picker = document.getElementById('docs-version');
  var versions = picker ? Array.prototype.map.call(picker.options, function (o) { return o.value; }) : [];
  var version = params.get('version');
  if (versions.indexOf(version) < 0) version = picker ? picker.getAttribute('data-current') : '';
  if (picker) {
    picker.value = version;
    picker.addEventListener('change', function () {
      params.set('version', picker.value);
      window.location.search = params.toString();
    });
  }
  var tags = document.querySelector('.docs-tags');
  var tag = params.get('tag') || (tags && tags.getAttribute('data-first-tag')) || 'all';
  if (tags) Array.prototype.forEach.call(tags.querySelectorAll('a[data-tag]'), function (link) {
    link.href = '/docs?tag=' + encodeURIComponent(link.getAttribute('data-tag')) + '&version=' + encodeURIComponent(version);
  });
  var current = tags && tags.querySelector('a[data-tag="' + CSS.escape(tag) + '"]');
  if (current) current.setAttribute('aria-current', 'page');
  var source = tag === 'all'
    ? '/' + encodeURIComponent(version) + '/openapi.json'
    : '/docs/openapi/' + encodeURIComponent(version) + '/' + encodeURIComponent(tag) + '.json';

  fetch(source, { headers: { accept: 'application/json' } })
    .then(function (response) { return response.json(); })
    .then(function (spec) {
      spec.servers = [{ url: window.location.origin, description: 'This server' }];
      var schemes = (spec.components && spec.components.securitySchemes) || {};
      Object.keys(schemes).forEach(function (name) {
        var flows = schemes[name].flows || {};
        Object.keys(flows).forEach(function (flow) {
          ['authorizationUrl', 'tokenUrl', 'refreshUrl'].forEach(function (key) {
            if (flows[flow][key]) flows[flow][key] = sameOrigin(flows[flow][key]);
          });
        });
      });
      // The server-drawn list of operations stays until Swagger UI has drawn its own: the first operation
      // is on screen as soon as the HTML is, however long Swagger UI takes to read the document.
      var fallback = document.getElementById('no-script');
      window.ui = SwaggerUIBundle({
        onComplete: function () { if (fallback) fallback.remove(); },
        spec: spec,
        dom_id: '#swagger-ui',
        layout: 'BaseLayout',
        presets: [SwaggerUIBundle.presets.apis],
        plugins: [SearchPlugin],
        deepLinking: true,
        filter: true,
        tryItOutEnabled: true,
        persistAuthorization: true,
        displayOperationId: true,
        displayRequestDuration: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: -1,
        validatorUrl: null,
        queryConfigEnabled: false,
        oauth2RedirectUrl: window.location.origin + '/docs/assets/oauth2-redirect.html'
      });
      window.ui.initOAuth({ usePkceWithAuthorizationCodeGrant: true, scopeSeparator: ' ' });
    })
    .catch(function (error) {
      document.getElementById('swagger-ui').textContent = 'Could not load ' + source + ': ' + error;
    });
})();
`;

/** The page around Swagger UI, and the list shown without JavaScript. */
export const DOCS_STYLESHEET = `body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#222}
.docs-header{padding:.6rem 1.25rem;background:#1b1b1b;color:#eee;border-bottom:1px solid #ddd;display:flex;gap:1.5rem;align-items:baseline;flex-wrap:wrap}
.docs-header a{color:#9cc3ff}
.docs-header select{font:inherit;margin-left:.3rem}
.docs-tags{padding:.5rem 1.25rem;border-bottom:1px solid #ddd;display:flex;gap:.4rem 1rem;flex-wrap:wrap;font-size:.9rem}
.docs-tags a{color:#1b5fb4;text-decoration:none}
.docs-tags a[aria-current=page]{font-weight:700;color:#222}
.docs-tags span{color:#888}
#no-script{max-width:70rem;margin:1rem auto;padding:0 1.25rem}
#no-script table{border-collapse:collapse;width:100%}
#no-script td{border-top:1px solid #eee;padding:.25rem .5rem;vertical-align:top}
#no-script code{font-size:.9em}
.swagger-ui .filter-container .operation-filter-input{width:100%;max-width:40rem}
`;
