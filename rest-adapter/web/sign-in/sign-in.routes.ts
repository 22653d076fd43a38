import express, { type Request, type Response } from 'express';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { WebSession } from '../../../subgraphs/identity/contract.js';
import { currentUser, safeReturnTo } from '../../web-kit/auth.js';
import { clearSessionCookie, setSessionCookie } from '../../web-kit/cookies.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { renderPage, sendPage } from '../../web-kit/layout.js';
import { loginForm, type SignInFormOptions, signupForm } from '../../web-kit/sign-in-forms.js';
import {
  FORM_EXPIRED,
  field,
  forbidden,
  messageOf,
  page,
  pageUser,
  queryParam,
  type WebDependencies,
} from '../account-pages.js';

/** `/login`, `/signup` and `/logout`: a person signs in, signs up and out (identity's web contract). */
export function signInRoutes(deps: WebDependencies): express.Router {
  const router = express.Router();
  router.get('/login', page(deps, showLogin));
  router.post('/login', page(deps, logIn));
  router.get('/signup', page(deps, showSignup));
  router.post('/signup', page(deps, signUp));
  router.post('/logout', page(deps, logOut));
  return router;
}

/** The session of this browser before it signs in (ended by the sign-in), or null. */
const previousSession = (req: Request) => currentUser(req)?.sessionId || null;

function signedIn(req: Request, res: Response, session: WebSession, returnTo: string) {
  setSessionCookie(req, res, session.token, session.lifetimeMs);
  res.redirect(303, returnTo);
}

/** The log-in or sign-up form again, with what was typed and why it was refused. */
async function formAgain(
  deps: WebDependencies,
  req: Request,
  res: Response,
  form: { title: string; render: (options: SignInFormOptions) => ReturnType<typeof loginForm> },
  options: { returnTo: string; email: string; status: number; error: string; invitation?: SignupInvitation },
) {
  sendPage(
    res,
    renderPage({
      title: form.title,
      narrow: true,
      user: await pageUser(deps, req, res),
      body: form.render({
        csrfToken: issueCsrfToken(req, res),
        returnTo: options.returnTo,
        email: options.email,
        error: options.error,
        invitation: options.invitation,
      }),
    }),
    options.status,
  );
}

const LOGIN = { title: 'Log in', render: loginForm };
const SIGNUP = { title: 'Sign up', render: signupForm };

async function showLogin(deps: WebDependencies, req: Request, res: Response) {
  const returnTo = safeReturnTo(queryParam(req, 'return_to'));
  const body = loginForm({ csrfToken: issueCsrfToken(req, res), returnTo });
  sendPage(res, renderPage({ title: 'Log in', body, user: await pageUser(deps, req, res), narrow: true }));
}

async function logIn(deps: WebDependencies, req: Request, res: Response) {
  const returnTo = safeReturnTo(field(req, 'return_to'));
  const email = field(req, 'email').trim();
  const again = (status: number, error: string) => formAgain(deps, req, res, LOGIN, { returnTo, email, status, error });
  if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
  // NOTE: identity gives the same answer, after the same scrypt work, for an unknown e-mail and a wrong password.
  const session = await deps.identity.signIn(email, field(req, 'password'), previousSession(req));
  if (!session) return again(400, 'Incorrect email or password.');
  signedIn(req, res, session, returnTo);
}

type SignupInvitation = (NonNullable<SignInFormOptions['invitation']> & { email: string }) | null;

/** The live invitation of a link's token, for the sign-up form (null: no token, or used, replaced, expired). */
async function invitationOf(deps: WebDependencies, token: string | null): Promise<SignupInvitation> {
  if (!token) return null;
  const found = await deps.identity.invitation(token);
  return found && { token, ...found };
}

/** `GET /signup`, and from an invitation's link (`?invitation=…`) the form that joins its organization. */
async function showSignup(deps: WebDependencies, req: Request, res: Response) {
  const returnTo = safeReturnTo(queryParam(req, 'return_to'));
  const token = queryParam(req, 'invitation');
  const invitation = await invitationOf(deps, token);
  const body = signupForm({
    csrfToken: issueCsrfToken(req, res),
    returnTo,
    invitation,
    email: invitation?.email,
    error: token && !invitation ? INVITATION_GONE : null,
  });
  sendPage(res, renderPage({ title: 'Sign up', body, user: await pageUser(deps, req, res), narrow: true }));
}

/** A link used, expired, or replaced by a later invitation of the address: the form is an ordinary sign-up then. */
const INVITATION_GONE =
  'This invitation has expired or was already used. Ask for a new one, or sign up here without it: you join no organization then.';

async function signUp(deps: WebDependencies, req: Request, res: Response) {
  const returnTo = safeReturnTo(field(req, 'return_to'));
  const email = field(req, 'email').trim();
  const password = field(req, 'password');
  const token = field(req, 'invitation') || null;
  const again = async (status: number, error: string) =>
    formAgain(deps, req, res, SIGNUP, { returnTo, email, status, error, invitation: await invitationOf(deps, token) });
  if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
  if (password !== field(req, 'password_confirmation')) return again(400, 'The passwords do not match.');
  let session: WebSession;
  try {
    session = await deps.identity.signUp(email, password, previousSession(req), token);
  } catch (error) {
    if (error instanceof PolarRequestValidationError) return again(400, messageOf(error));
    throw error;
  }
  signedIn(req, res, session, returnTo);
}

async function logOut(deps: WebDependencies, req: Request, res: Response) {
  if (!verifyCsrf(req)) return forbidden(deps, req, res, FORM_EXPIRED);
  const user = currentUser(req);
  if (user?.sessionId) await deps.identity.signOut(user.sessionId);
  clearSessionCookie(req, res);
  res.redirect(303, '/login');
}
