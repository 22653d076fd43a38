import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { headerOf, parseJson, readBody, sendJson } from './http-util.js';
import {
  INTERNAL_SIGNATURE_HEADER,
  INTERNAL_TIMESTAMP_HEADER,
  signInternalRequest,
  verifyInternalRequest,
  type WireDomainError,
} from './internal-auth.js';
import { onwardHeaders } from './onward-headers.js';
import { joinUrl } from './peers.js';
import type { Routes } from './router.js';
import { fromWireDomainError, toWireDomainError } from './wire-domain-error.js';

/**
 * Signed JSON RPC between the processes of the distributed topology: how the public REST adapter calls
 * a contract a subgraph publishes (identity's `WebIdentity` and `OAuth2Provider`) without holding its
 * database or importing its internals. One helper for every contract:
 *
 *   `POST <prefix>/<method>`  body `{"args": [...]}`  →  200 `{"result": ...}`  (no `result`: undefined)
 *                                                     →  4xx `{"error": {code, message, status, details?}}`
 *
 * Every request is HMAC-signed with INTERNAL_KEY over method, path, timestamp and the raw body
 * (kit/http/internal-auth.ts, exactly as `POST /internal/principal`); a missing, forged or stale
 * signature is a 401 before anything runs. Arguments and results must be plain JSON: a contract uses
 * null, never undefined, for an absent argument (JSON turns an undefined array item into null), and
 * ISO strings for times.
 */
export interface RpcContract<T> {
  /** `/internal/<name>`: each method is served at `<prefix>/<method>`. */
  prefix: string;
  /** Every method of the contract (a compile error when one is missing). */
  methods: { [K in keyof T]-?: true };
}

const REQUEST_TIMEOUT_MS = 10_000;

const UNSIGNED = {
  error: { code: 'UNAUTHENTICATED', message: 'Internal requests must be signed with the internal key.', status: 401 },
};

/**
 * The raw body of an internal request to `path` when its signature is valid; otherwise answers 401
 * (logged) and returns undefined. Shared by every internal endpoint (principal look-ups, RPC).
 */
export async function readSignedBody(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  internalKey: string,
  logger: Logger,
  requestId: string,
): Promise<string | undefined> {
  const raw = await readBody(req);
  const signed = verifyInternalRequest(
    {
      method: 'POST',
      path,
      body: raw,
      timestamp: headerOf(req, INTERNAL_TIMESTAMP_HEADER),
      signature: headerOf(req, INTERNAL_SIGNATURE_HEADER),
    },
    internalKey,
  );
  if (signed) return raw;
  logger.warn({ requestId, path, remote: req.socket.remoteAddress }, 'internal request without a valid signature');
  sendJson(res, 401, UNSIGNED);
  return undefined;
}

/** The routes serving `implementation` (only the contract's methods) for kit/http/router.ts. */
export function signedRpcRoutes<T extends object>(
  contract: RpcContract<T>,
  implementation: T,
  internalKey: string,
  logger: Logger,
): Routes {
  const routes: Routes = {};
  for (const name of Object.keys(contract.methods) as (keyof T & string)[]) {
    const path = `${contract.prefix}/${name}`;
    const method = implementation[name];
    if (typeof method !== 'function') throw new Error(`${path}: the implementation has no method ${name}`);
    routes[path] = {
      POST: async (req, res, requestId) => {
        const raw = await readSignedBody(req, res, path, internalKey, logger, requestId);
        if (raw === undefined) return;
        const args = (parseJson(raw) as { args?: unknown } | undefined)?.args;
        if (!Array.isArray(args)) {
          sendJson(res, 400, {
            error: { code: 'BadRequest', message: 'The body must be {"args": [...]}.', status: 400 },
          });
          return;
        }
        let result: unknown;
        try {
          result = await (method as (...a: unknown[]) => Promise<unknown>).apply(implementation, args);
        } catch (error) {
          const wire = toWireDomainError(error);
          // Anything but a caller's error is the router's 500 (logged there, no details on the wire).
          if (!wire) throw error;
          sendJson(res, wire.status, { error: wire });
          return;
        }
        sendJson(res, 200, result === undefined ? {} : { result });
      },
    };
  }
  return routes;
}

/**
 * An implementation of the contract that calls `<baseUrl><prefix>/<method>`, signed with the internal
 * key. A caller's error comes back as the same DomainError class; any other failure (unreachable,
 * refused signature, 5xx) is an Error, which the caller answers as its own 500.
 */
export function signedRpcClient<T extends object>(contract: RpcContract<T>, baseUrl: string, internalKey: string): T {
  const client: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.keys(contract.methods)) {
    const path = `${contract.prefix}/${name}`;
    const url = joinUrl(baseUrl, path);
    client[name] = async (...args: unknown[]) => {
      const body = JSON.stringify({ args });
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...onwardHeaders(),
            ...signInternalRequest('POST', path, body, internalKey),
          },
          body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        throw new Error(`${url} unreachable`, { cause: error });
      }
      const payload = (await response.json().catch(() => undefined)) as
        | { result?: unknown; error?: WireDomainError }
        | undefined;
      if (response.ok && payload) return payload.result;
      const error = fromWireDomainError(payload?.error, response.status);
      if (error) throw error;
      throw new Error(`${url} answered ${response.status}${payload?.error?.code ? ` (${payload.error.code})` : ''}`);
    };
  }
  return client as T;
}
