import type { Operation } from './openapi-requests.js';
import type { Reply } from './openapi-send.js';

/**
 * What every answer to a generated request must satisfy, as a list of problems (empty: fine): never a
 * 5xx, and every error body in one of docs/polar/errors.md's shapes.
 */
export function errorShapeProblems(operation: Operation, reply: Reply): string[] {
  const { status, body } = reply;
  if (status >= 500) return [`answered ${status}`];
  if (status < 400) return [];
  if (status === 429)
    return reply.text === '' && reply.headers['retry-after'] ? [] : ['429 without Retry-After or with a body'];
  // An HTML page (the authorization endpoint's error page) where the document says this status is HTML.
  const documented = Object.keys(operation.responses?.[String(status)]?.content ?? {});
  const contentType = String(reply.headers['content-type'] ?? '');
  if (documented.includes('text/html') && contentType.startsWith('text/html')) return [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [`${status} body is not a JSON object`];
  // POST /graphql answers its own errors in the GraphQL response shape (`{"errors": [...]}`).
  if (operation.path === '/graphql' && Array.isArray(body.errors) && body.errors.length)
    return body.errors.every((e: any) => typeof e?.message === 'string')
      ? []
      : [`${status} GraphQL error without a message: ${JSON.stringify(body).slice(0, 300)}`];
  const problems: string[] = [];
  const isString = (v: unknown) => typeof v === 'string';
  const keys = Object.keys(body).sort().join(',');
  const oauthShaped = keys === 'error,error_description' || keys === 'error';
  const polarShaped = keys === 'detail,error' && isString(body.error);
  const routingShaped = keys === 'detail' && isString(body.detail);

  if (status === 422 && Array.isArray(body.detail)) {
    if (!['RequestValidationError', 'PolarRequestValidationError'].includes(body.error))
      problems.push(`422 list with error ${JSON.stringify(body.error)}`);
    if (!body.detail.length) problems.push('422 with an empty detail list');
    for (const item of body.detail) problems.push(...validationItemProblems(item));
    return problems;
  }
  if (status === 401) {
    const invalidToken = oauthShaped && body.error === 'invalid_token' && isString(body.error_description);
    const unauthorized = polarShaped && body.error === 'Unauthorized' && body.detail === 'Unauthorized';
    const oauthEndpoint = operation.path.includes('/oauth2/') && oauthShaped && isString(body.error);
    // Polar's 401 classes that are not about the bearer (a spent or expired sign-in code or e-mail change).
    const domain = polarShaped && isString(body.detail) && DOMAIN_401.has(body.error);
    if (!invalidToken && !unauthorized && !oauthEndpoint && !domain) problems.push(`401 body ${JSON.stringify(body)}`);
    if (!reply.headers['www-authenticate'] && !oauthEndpoint) problems.push('401 without WWW-Authenticate');
    return problems;
  }
  if (status === 403 && oauthShaped && body.error === 'insufficient_scope') return [];
  if ((status === 404 || status === 405 || status === 413) && routingShaped) return [];
  // OAuth 2.0 endpoints answer RFC 6749's `{error, error_description}` for their own 400s.
  if (status === 400 && operation.path.includes('/oauth2/') && oauthShaped && isString(body.error)) return [];
  if (polarShaped && isString(body.detail)) return [];
  return [`${status} body ${JSON.stringify(body).slice(0, 300)} has none of the documented shapes`];
}

const DOMAIN_401 = new Set(['CustomerSessionCodeInvalidOrExpired', 'InvalidCustomerEmailUpdate']);

/** One 422 item: pydantic's `type`, `loc`, `msg`, `input` (and an optional object `ctx`), nothing else. */
export function validationItemProblems(item: any): string[] {
  const problems: string[] = [];
  const where = JSON.stringify(item)?.slice(0, 200);
  if (!item || typeof item !== 'object') return [`422 item ${where} is not an object`];
  if (typeof item.type !== 'string' || !item.type) problems.push(`422 item without type: ${where}`);
  if (typeof item.msg !== 'string' || !item.msg) problems.push(`422 item without msg: ${where}`);
  if (!('input' in item)) problems.push(`422 item without input: ${where}`);
  if (
    !Array.isArray(item.loc) ||
    !item.loc.length ||
    !['body', 'query', 'path', 'header'].includes(item.loc[0]) ||
    !item.loc.every((p: unknown) => typeof p === 'string' || Number.isInteger(p))
  )
    problems.push(`422 item with a bad loc: ${where}`);
  if ('ctx' in item && (typeof item.ctx !== 'object' || item.ctx === null)) problems.push(`422 item ctx: ${where}`);
  const extra = Object.keys(item).filter(k => !['type', 'loc', 'msg', 'input', 'ctx'].includes(k));
  if (extra.length) problems.push(`422 item with extra keys ${extra.join(',')}`);
  return problems;
}

/** A 2xx answer must not carry another tenant's object: its id anywhere in the body is a leak. */
export function leakProblems(reply: Reply, foreignIds: readonly string[]): string[] {
  if (reply.status < 200 || reply.status >= 300) return [];
  const text = reply.text.toLowerCase();
  return foreignIds.filter(id => text.includes(id.toLowerCase())).map(id => `2xx answer contains foreign id ${id}`);
}
