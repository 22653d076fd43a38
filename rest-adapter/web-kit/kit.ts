/**
 * The web kit: what every server-rendered page of the service uses (the sign-in and settings pages
 * here, the OAuth authorize and consent pages in rest-adapter/oauth). Plain HTML, no scripts, one
 * stylesheet, CSRF on every form post, secure cookies.
 *
 *   renderPage({ title, body, user?, narrow? }) → the full document (string); `sendPage(res, page, status)`
 *   html`…` / escapeHtml / rawHtml             → escaping by construction
 *   issueCsrfToken(req, res) / verifyCsrf(req)  → the hidden `csrf_token` input and its check
 *   currentUser(req) / requireSignIn(req, res)  → the signed-in user (polar_session; polar_sandbox_session
 *                                                 in the sandbox: sessionCookieName) or a 303 to /login
 *   safeReturnTo(value)                         → a same-origin path, or /dashboard
 *
 * The request helpers read their settings from the app (`configureWebKit`, done by assemble.ts).
 */
export { currentUser, DEFAULT_RETURN_TO, loginUrl, requireSignIn, safeReturnTo, type SignedInUser } from './auth.js';
export {
  clearSessionCookie,
  cookieOptions,
  csrfCookieName,
  readCookie,
  SESSION_COOKIE,
  sessionCookieName,
  setSessionCookie,
} from './cookies.js';
export { CSRF_COOKIE, CSRF_FIELD, issueCsrfToken, verifyCsrf } from './csrf.js';
export { escapeHtml, html, type HtmlValue, rawHtml, SafeHtml, toHtml } from './html.js';
export {
  csrfField,
  errorBox,
  type PageOptions,
  type PageUser,
  renderMessagePage,
  renderPage,
  sendPage,
  STYLESHEET,
} from './layout.js';
export { loginForm, signupForm, type SignInFormOptions } from './sign-in-forms.js';
export { configureWebKit, type WebSettings } from './settings.js';
