import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { PRINCIPAL_HEADER, type Principal, verifyPrincipal } from '../principal.js';
import { headerOf, parseJson, readBody, sendJson } from './http-util.js';

/** GraphQL over HTTP on the bare node:http servers (gateway, subgraphs). */

export interface GraphQLRequest {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
}

/** A GraphQL error response without data: `{ errors: [{ message, extensions: { code } }] }`. */
export function sendGraphQLError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { errors: [{ message, extensions: { code } }] }, headers);
}

/**
 * Reads a POSTed JSON body `{ query, operationName?, variables? }`. When it is not one, answers 400 and
 * returns undefined. A body over the size limit throws BodyTooLarge (from readBody).
 */
export async function readGraphQLRequest(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<GraphQLRequest | undefined> {
  const request = graphQLRequestOf(parseJson(await readBody(req)));
  if (!request) sendGraphQLError(res, 400, 'POST a JSON body {"query": "...", "variables": {...}}.', 'BAD_REQUEST');
  return request;
}

/** A parsed JSON body as a GraphQL request (fields of the wrong type dropped), or undefined without a `query`. */
export function graphQLRequestOf(parsed: unknown): GraphQLRequest | undefined {
  const body = parsed as { query?: unknown; operationName?: unknown; variables?: unknown } | undefined;
  if (!body || typeof body !== 'object' || typeof body.query !== 'string') return undefined;
  return {
    query: body.query,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
    variables:
      body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : undefined,
  };
}

/**
 * The principal its caller signed into x-billing-principal with the internal key, checked before the
 * body is read. A request without a valid signature is answered 401 (its body drained, the refusal
 * logged as `refusal.log`) and gets null.
 */
export function signedPrincipalOf(internalKey: string, logger: Logger, refusal: { log: string; message: string }) {
  return (req: IncomingMessage, res: ServerResponse, requestId: string): Principal | null => {
    const principal = verifyPrincipal(headerOf(req, PRINCIPAL_HEADER), internalKey);
    if (!principal) {
      req.resume();
      logger.warn({ requestId, remote: req.socket.remoteAddress }, refusal.log);
      sendGraphQLError(res, 401, refusal.message, 'UNAUTHENTICATED');
    }
    return principal;
  };
}
