import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PrincipalResolver } from '../principal.js';
import { headerOf, parseJson, readBody, sendJson } from './http-util.js';
import {
  INTERNAL_PRINCIPAL_PATH,
  INTERNAL_SIGNATURE_HEADER,
  INTERNAL_TIMESTAMP_HEADER,
  type PrincipalRequestBody,
  verifyInternalRequest,
  type WireDomainError,
} from './internal-auth.js';

/**
 * `POST /internal/principal` of a subgraph process (distributed topology): an HMAC-signed
 * `{authorization?, session?}` → `{principal}`, or `{error}` with the domain error's status. Served
 * by every subgraph that owns credentials (identity: user and organization tokens; billing: customer
 * sessions).
 */
export function principalEndpoint(principals: PrincipalResolver, internalKey: string, logger: Logger) {
  return async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    const raw = await readBody(req);
    const signed = verifyInternalRequest(
      {
        method: 'POST',
        path: INTERNAL_PRINCIPAL_PATH,
        body: raw,
        timestamp: headerOf(req, INTERNAL_TIMESTAMP_HEADER),
        signature: headerOf(req, INTERNAL_SIGNATURE_HEADER),
      },
      internalKey,
    );
    if (!signed) {
      logger.warn({ requestId, remote: req.socket.remoteAddress }, 'internal request without a valid signature');
      sendJson(res, 401, {
        error: {
          code: 'UNAUTHENTICATED',
          message: 'Internal requests must be signed with the internal key.',
          status: 401,
        },
      });
      return;
    }
    const body = parseJson(raw) as PrincipalRequestBody | undefined;
    const authorization = typeof body?.authorization === 'string' ? body.authorization : undefined;
    const session = typeof body?.session === 'string' ? body.session : undefined;
    try {
      sendJson(res, 200, { principal: await principals.resolve(authorization, session) });
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) throw error;
      const wire: WireDomainError = { code: error.code, message: error.message, status: error.status };
      if (error.details !== undefined) wire.details = error.details;
      sendJson(res, error.status, { error: wire });
    }
  };
}

/** What the router answers when the endpoint itself fails. */
export const PRINCIPAL_ENDPOINT_INTERNAL_ERROR = {
  error: { code: 'InternalServerError', message: 'Internal server error', status: 500 },
};
