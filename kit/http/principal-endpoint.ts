import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { PrincipalResolver } from '../principal.js';
import { parseJson, sendJson } from './http-util.js';
import { INTERNAL_PRINCIPAL_PATH, type PrincipalRequestBody } from './internal-auth.js';
import { readSignedBody } from './signed-rpc.js';
import { toWireDomainError } from './wire-domain-error.js';

/**
 * `POST /internal/principal` of a subgraph process (distributed topology): an HMAC-signed
 * `{authorization?, session?}` → `{principal}`, or `{error}` with the domain error's status. Served
 * by every subgraph that owns credentials (identity: user and organization tokens; billing: customer
 * sessions).
 */
export function principalEndpoint(principals: PrincipalResolver, internalKey: string, logger: Logger) {
  return async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    const raw = await readSignedBody(req, res, INTERNAL_PRINCIPAL_PATH, internalKey, logger, requestId);
    if (raw === undefined) return;
    const body = parseJson(raw) as PrincipalRequestBody | undefined;
    const authorization = typeof body?.authorization === 'string' ? body.authorization : undefined;
    const session = typeof body?.session === 'string' ? body.session : undefined;
    try {
      sendJson(res, 200, { principal: await principals.resolve(authorization, session) });
    } catch (error) {
      const wire = toWireDomainError(error);
      if (!wire) throw error;
      sendJson(res, wire.status, { error: wire });
    }
  };
}

/** What the router answers when an internal endpoint (principal, RPC) itself fails. */
export const INTERNAL_ENDPOINT_ERROR = {
  error: { code: 'InternalServerError', message: 'Internal server error', status: 500 },
};
