/**
 * A customer e-mail's portal links (docs/email.md#links): each signs in once, by a one-time token of
 * its own. Plain constants, so the REST adapter's portal entry (through billing's contract.ts) and the
 * e-mails that write the links name the same query parameter.
 */

/** How long an e-mail's portal link signs in (once): a week, longer than any reminder's lead time but one. */
export const EMAIL_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The one-time sign-in tokens of e-mail links: `polar_cel_` + 43 characters (the authenticate route takes ≤ 64). */
export const EMAIL_LINK_PREFIX = 'polar_cel_';
/** The portal's query parameter that carries it (rest-adapter's portal entry trades it for a session). */
export const EMAIL_LINK_PARAM = 'login_token';
