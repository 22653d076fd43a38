import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import { noticeBox } from './portal-layout.js';

/** Step 1 without a session: the e-mail form (posts to `/portal/<slug>/request`). */
export function emailForm(options: {
  base: string;
  organizationName: string;
  csrfToken: string;
  email?: string;
  error?: string | null;
  notice?: string | null;
  /** The portal page to open after signing in. */
  returnTo?: string | null;
}): SafeHtml {
  return html`<h1>Sign in</h1>
<div class="card">
${noticeBox(options.notice)}${errorBox(options.error)}
<p class="muted">Enter the e-mail address you used to buy from ${options.organizationName}. We will e-mail you a code.</p>
<form class="stack" method="post" action="${options.base}/request">
${csrfField(options.csrfToken)}${returnField(options.returnTo)}
<div class="field"><label for="portal-email">Email</label><input id="portal-email" type="email" name="email" value="${options.email ?? ''}" autocomplete="email" required autofocus></div>
<button type="submit">Send me a code</button>
</form>
</div>`;
}

/** Step 2: the code form (posts to `/portal/<slug>/authenticate`). */
export function codeForm(options: {
  base: string;
  csrfToken: string;
  email?: string | null;
  error?: string | null;
  returnTo?: string | null;
}): SafeHtml {
  return html`<h1>Enter your code</h1>
<div class="card">
${errorBox(options.error)}
<p class="muted">${options.email ? html`If <strong>${options.email}</strong> belongs to a customer, a 6-character code is on its way. ` : null}The code works once, for 30 minutes.</p>
<form class="stack" method="post" action="${options.base}/authenticate">
${csrfField(options.csrfToken)}${returnField(options.returnTo)}
<div class="field"><label for="portal-code">Code</label><input id="portal-code" type="text" name="code" autocomplete="one-time-code" inputmode="text" maxlength="12" required autofocus></div>
<button type="submit">Sign in</button>
</form>
<p class="muted"><a href="${options.base}/request">Send a new code</a></p>
</div>`;
}

function returnField(returnTo: string | null | undefined): SafeHtml {
  return returnTo ? html`<input type="hidden" name="return_to" value="${returnTo}">` : html``;
}
