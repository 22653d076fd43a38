/**
 * An OAuth 2.0 error (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2; RFC 7009; OIDC Core §3.1.2.6): the wire
 * body is `{error, error_description}`. These never become Polar's `{error, detail}` bodies: the
 * OAuth endpoints answer in OAuth's shape, which is what OAuth clients parse.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = error;
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidClientMetadata = (description: string) => new OAuthError('invalid_client_metadata', description);
export const invalidRedirectUri = (description: string) => new OAuthError('invalid_redirect_uri', description);
