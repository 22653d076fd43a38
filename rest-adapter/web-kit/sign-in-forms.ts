import { DEFAULT_RETURN_TO, withReturnTo } from './auth.js';
import { html, type SafeHtml } from './html.js';
import { csrfField, errorBox } from './layout.js';

export interface SignInFormOptions {
  csrfToken: string;
  /** Where to go after signing in (already checked with `safeReturnTo`). */
  returnTo?: string;
  /** The e-mail to fill in again after a failed attempt. */
  email?: string;
  error?: string | null;
  /** The sign-up of an invitation's link: its token (posted back), the organization it joins and the role. */
  invitation?: { token: string; organizationName: string; role: string } | null;
}

/**
 * The sign-in form (inputs labelled "Email" and "Password", a button "Log in", a link "Sign up"). It
 * posts to `/login`, which comes back to `returnTo`: the OAuth pages can embed it as it is.
 */
export function loginForm({ csrfToken, returnTo, email, error }: SignInFormOptions): SafeHtml {
  return html`<h1>Log in</h1>
<div class="card">
${errorBox(error)}
<form class="stack" method="post" action="/login">
${csrfField(csrfToken)}
<input type="hidden" name="return_to" value="${returnTo ?? DEFAULT_RETURN_TO}">
<div class="field"><label for="login-email">Email</label><input id="login-email" type="email" name="email" value="${email ?? ''}" autocomplete="username" required autofocus></div>
<div class="field"><label for="login-password">Password</label><input id="login-password" type="password" name="password" autocomplete="current-password" required></div>
<button type="submit">Log in</button>
</form>
<p class="muted">No account yet? <a href="${withReturnTo('/signup', returnTo)}">Sign up</a></p>
</div>`;
}

/**
 * The sign-up form: e-mail, password and its confirmation, a button "Sign up", a link "Log in". From an
 * invitation's link it says what the account joins, and posts the link's token back.
 */
export function signupForm({ csrfToken, returnTo, email, error, invitation }: SignInFormOptions): SafeHtml {
  return html`<h1>Sign up</h1>
<div class="card">
${errorBox(error)}
${invitation ? html`<p data-invitation>You are invited to join <strong>${invitation.organizationName}</strong> as ${invitation.role}. Sign up with the invited e-mail address, filled in below: your account is created and joins the organization at once.</p>` : null}
<form class="stack" method="post" action="/signup">
${csrfField(csrfToken)}
${invitation ? html`<input type="hidden" name="invitation" value="${invitation.token}">` : null}
<input type="hidden" name="return_to" value="${returnTo ?? DEFAULT_RETURN_TO}">
<div class="field"><label for="signup-email">Email</label><input id="signup-email" type="email" name="email" value="${email ?? ''}" autocomplete="email" required autofocus></div>
<div class="field"><label for="signup-password">Password</label><input id="signup-password" type="password" name="password" autocomplete="new-password" minlength="8" required></div>
<div class="field"><label for="signup-confirm">Confirm password</label><input id="signup-confirm" type="password" name="password_confirmation" autocomplete="new-password" minlength="8" required></div>
<button type="submit">Sign up</button>
</form>
<p class="muted">Already have an account? <a href="${withReturnTo('/login', returnTo)}">Log in</a></p>
</div>`;
}
