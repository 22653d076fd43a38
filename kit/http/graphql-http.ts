import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, sendJson } from './http-util.js';

/** GraphQL over HTTP on the bare node:http servers (gateway, subgraphs). */

export interface GraphQLRequest {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
}

/** A GraphQL error response without data: `{ errors: [{ message, extensions: { code } }] }`. */
export function sendGraphQLError(res: ServerResponse, status: number, message: string, code: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { errors: [{ message, extensions: { code } }] }, headers);
}

/**
 * Reads a POSTed JSON body `{ query, operationName?, variables? }`. When it is not one, answers 400 and
 * returns undefined. A body over the size limit throws BodyTooLarge (from readBody).
 */
export async function readGraphQLRequest(req: IncomingMessage, res: ServerResponse): Promise<GraphQLRequest | undefined> {
  const body = parseJson(await readBody(req)) as { query?: unknown; operationName?: unknown; variables?: unknown } | undefined;
  if (!body || typeof body !== 'object' || typeof body.query !== 'string') {
    sendGraphQLError(res, 400, 'POST a JSON body {"query": "...", "variables": {...}}.', 'BAD_REQUEST');
    return undefined;
  }
  return {
    query: body.query,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
    variables: body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : undefined,
  };
}
