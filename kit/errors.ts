/**
 * Domain errors carry a stable class name (the wire `error` field, as Polar's clients expect it) and
 * an HTTP status. Subgraphs throw them; `kit/graphql/format-error.ts` turns them into GraphQL errors;
 * the REST adapter turns those into wire bodies. Nothing else decides a status code.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly code: string;
  /** Extra data that travels to the wire (validation items, WWW-Authenticate hints). */
  readonly details?: unknown;

  constructor(code: string, message: string, status: number, details?: unknown) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
    this.name = code;
  }
}

export class ResourceNotFound extends DomainError {
  constructor(message = 'Not found') {
    super('ResourceNotFound', message, 404);
  }
}

export class NotPermitted extends DomainError {
  constructor(message = 'Not permitted') {
    super('NotPermitted', message, 403);
  }
}

export class BadRequest extends DomainError {
  constructor(message = 'Bad request') {
    super('BadRequest', message, 400);
  }
}

/** The endpoint does not accept this kind of caller (or there is no usable credential). */
export class Unauthorized extends DomainError {
  constructor() {
    super('Unauthorized', 'Unauthorized', 401);
  }
}

/** RFC 6750 §3.1: the bearer is unknown, expired, revoked or malformed. */
export class InvalidToken extends DomainError {
  constructor() {
    super(
      'invalid_token',
      'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
      401,
    );
  }
}

/** RFC 6750 §3.1: the token is valid but lacks every scope the operation accepts. */
export class InsufficientScope extends DomainError {
  constructor(requiredScopes: readonly string[]) {
    super('insufficient_scope', 'The request requires higher privileges than provided by the access token.', 403, {
      scopes: requiredScopes,
    });
  }
}

/** One item of a 422 body, in pydantic's shape (`type`, `loc`, `msg`, `input`). */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Business-level validation (unknown ids, duplicate slugs, bad sorting keys): 422 with items. */
export class PolarRequestValidationError extends DomainError {
  constructor(issues: ValidationIssue[]) {
    super('PolarRequestValidationError', issues.map(i => i.msg).join('; '), 422, issues);
  }
}

/** Request-shape validation at the edge: 422 with items. */
export class RequestValidationError extends DomainError {
  constructor(issues: ValidationIssue[]) {
    super('RequestValidationError', issues.map(i => i.msg).join('; '), 422, issues);
  }
}

/**
 * 503: the service could not answer in time because a bounded wait ran out (kit/database/waits.ts: a
 * connection, a statement, a lock). The transaction that waited was rolled back; the request may be
 * sent again shortly. The detail names what took too long, never the statement or its data.
 */
export class ServiceUnavailable extends DomainError {
  constructor(message: string, details?: unknown) {
    super('ServiceUnavailable', message, 503, details);
  }
}
