/**
 * The two small files of our own that the GraphQL explorer serves next to GraphiQL's bundle: the script
 * that mounts GraphiQL (the page's CSP allows no inline script) and the stylesheet of the page around it.
 * Strings, so that the build, which compiles TypeScript only, ships them (as docs-assets.ts does).
 */

/** What the headers editor shows first: the token goes where the placeholder is. */
export const TOKEN_PLACEHOLDER = 'YOUR_TOKEN';

/** Browser script (ES2017, no modules): GraphiQL 3 on `POST /graphql` of this origin. */
export const EXPLORER_SCRIPT = `'use strict';
(function () {
  var PLACEHOLDER = 'Bearer ${TOKEN_PLACEHOLDER}';
  var post = GraphiQL.createFetcher({ url: window.location.origin + '/graphql' });
  // Until a token replaces the placeholder, send no Authorization header: the schema (docs, completion)
  // then loads as for anyone, and a signed-in person's session cookie is used as on the other pages.
  function fetcher(params, options) {
    var headers = Object.assign({}, options && options.headers);
    Object.keys(headers).forEach(function (name) {
      var value = String(headers[name]).trim();
      if (name.toLowerCase() === 'authorization' && (value === PLACEHOLDER || value === 'Bearer')) delete headers[name];
    });
    return post(params, Object.assign({}, options, { headers: headers }));
  }
  var fallback = document.getElementById('no-script');
  if (fallback) fallback.remove();
  var root = document.getElementById('graphiql');
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: root.getAttribute('data-default-query'),
      defaultHeaders: JSON.stringify({ Authorization: PLACEHOLDER }, null, 2),
      defaultEditorToolsVisibility: 'headers',
      // Tokens stay out of localStorage: the next person at this browser should not find them.
      shouldPersistHeaders: false
    })
  );
})();
`;

/** The page around GraphiQL: a header with the token help above an editor that fills the window. */
export const EXPLORER_STYLESHEET = `html,body{height:100%;margin:0}
body{display:flex;flex-direction:column;font:15px/1.5 system-ui,sans-serif;color:#222}
.explorer-header{padding:.5rem 1.25rem;background:#1b1b1b;color:#eee;display:flex;gap:.4rem 1.5rem;align-items:baseline;flex-wrap:wrap}
.explorer-header a{color:#9cc3ff}
.explorer-header code{color:#fff}
.explorer-help{margin:0;flex-basis:100%;font-size:.9rem;color:#ccc}
#graphiql{flex:1;min-height:0}
#no-script{max-width:60rem;margin:1rem auto;padding:0 1.25rem}
`;
