import { readRawBody } from '../raw-body.js';
import { createVerify } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { DomainError, RequestValidationError } from '../../../kit/errors.js';
import type { LeakedTokenOutcome, LeakedTokenRevoker, LeakReport } from '../../../kit/leaked-tokens.js';
import type { Logger } from '../../../kit/logger.js';
import { parseOrThrow } from '../../v1/validation.js';
import { sendError } from '../../v1/wire-errors.js';
import type { GitHubPublicKeys } from './github-keys.js';

export const SECRET_SCANNING_PATH = '/v1/integrations/github/secret-scanning';

/** Polar's TokenType values GitHub reports (docs/polar/auth.md#secret-scanning). */
export const SECRET_SCANNING_TOKEN_TYPES = [
  'polar_client_secret',
  'polar_client_registration_token',
  'polar_authorization_code',
  'polar_access_token',
  'polar_refresh_token',
  'polar_personal_access_token',
  'polar_organization_access_token',
  'polar_customer_session_token',
  'polar_user_session_token',
] as const;

const report = z.array(
  z.object({
    token: z.string(),
    // Case-insensitive, as Polar's enum is.
    type: z.preprocess(v => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(SECRET_SCANNING_TOKEN_TYPES)),
    url: z.string().nullish(),
    source: z.string(),
  }),
);

export interface SecretScanningDependencies {
  /** Empty: the endpoint is not configured and answers 503. */
  keys: GitHubPublicKeys;
  /**
   * Identity's, then billing's (in-process or signed RPC); the first that knows the token revokes it,
   * and e-mails its owner (the e-mail is written with the revocation: kit/email/owner-notices.ts).
   */
  revokers: LeakedTokenRevoker[];
  logger: Logger;
}

class SecretScanningNotConfigured extends DomainError {
  constructor() {
    super(
      'SecretScanningNotConfigured',
      'GitHub secret scanning is not configured: set GITHUB_SECRET_SCANNING_KEYS or GITHUB_SECRET_SCANNING_KEYS_FILE.',
      503,
    );
  }
}

class PublicKeyNotFound extends DomainError {
  constructor(keyIdentifier: string) {
    super('PublicKeyNotFound', `Public key with key_identifier ${keyIdentifier} not found.`, 400);
  }
}

class InvalidSignature extends DomainError {
  constructor() {
    super('InvalidSignature', 'Invalid signature.', 403);
  }
}

/**
 * `POST /v1/integrations/github/secret-scanning`: GitHub's secret-scanning partner endpoint. Mounted
 * before the app's JSON parser (app.ts `rawBodyRouters`), because the signature covers the exact bytes
 * GitHub sent: the body is read raw here, verified, and only then parsed. No principal: the signature
 * is the authentication; the per-address rate limit applies, as to every request.
 */
export function createSecretScanningRouter(deps: SecretScanningDependencies): express.Router {
  const router = express.Router();
  router.post(SECRET_SCANNING_PATH, readRawBody('1mb'), async (req: Request, res: Response) => {
    try {
      // An unsigned request is the caller's mistake (422) whatever the configuration; only a signed one
      // learns that this deployment cannot check signatures (503).
      const signed = signatureHeaders(req);
      if (deps.keys.size === 0) throw new SecretScanningNotConfigured();
      const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      verifySignature(deps.keys, signed, raw);
      const matches = parseOrThrow(report, 'body', parseJson(raw));
      const results = [];
      for (const match of matches) {
        const leak = { url: match.url ?? null, source: match.source };
        const revoked = await revoke(deps.revokers, match.token, leak);
        if (revoked) logRevocation(deps, revoked, leak, req.requestId);
        results.push({
          token_raw: match.token,
          token_type: match.type,
          label: revoked ? 'true_positive' : 'false_positive',
        });
      }
      res.status(200).json(results);
    } catch (error) {
      // sendError hides the message of every 5xx; this one is meant for the operator to read.
      if (error instanceof SecretScanningNotConfigured) {
        res.status(503).json({ error: error.code, detail: error.message });
        return;
      }
      if (!(error instanceof DomainError))
        deps.logger.error({ err: error, requestId: req.requestId }, 'secret scanning failed');
      sendError(res, error);
    }
  });
  return router;
}

/** GitHub's two signature headers. @throws RequestValidationError (422 at each missing header). */
function signatureHeaders(req: Request): { keyIdentifier: string; signature: string } {
  const keyIdentifier = req.get('github-public-key-identifier');
  const signature = req.get('github-public-key-signature');
  const missing = [
    ['github-public-key-identifier', keyIdentifier],
    ['github-public-key-signature', signature],
  ].filter(([, value]) => !value);
  if (missing.length)
    throw new RequestValidationError(
      missing.map(([name]) => ({
        type: 'missing',
        loc: ['header', name as string],
        msg: 'Field required',
        input: null,
      })),
    );
  return { keyIdentifier: keyIdentifier as string, signature: signature as string };
}

function verifySignature(
  keys: GitHubPublicKeys,
  { keyIdentifier, signature }: { keyIdentifier: string; signature: string },
  raw: Buffer,
): void {
  const key = keys.get(keyIdentifier);
  if (!key) throw new PublicKeyNotFound(keyIdentifier);
  // ECDSA P-256 with SHA-256 over the raw body; GitHub sends the DER signature in base64.
  let valid = false;
  try {
    valid = createVerify('SHA256').update(raw).verify(key, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) throw new InvalidSignature();
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    // The app's answer to any body that is not JSON (app.ts errorHandler).
    throw new RequestValidationError([
      {
        type: 'json_invalid',
        loc: ['body', 0],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
  }
}

async function revoke(
  revokers: LeakedTokenRevoker[],
  token: string,
  leak: LeakReport,
): Promise<LeakedTokenOutcome | null> {
  for (const revoker of revokers) {
    const revoked = await revoker.revokeLeaked(token, leak);
    if (revoked) return revoked;
  }
  return null;
}

/**
 * One warning per revoked token (owner, kind, the row, where GitHub found it, how many were e-mailed
 * before the answer; null: the e-mail waits in the subgraph's notices and its relay sends it), never
 * the token.
 */
function logRevocation(
  deps: SecretScanningDependencies,
  revoked: LeakedTokenOutcome,
  leak: LeakReport,
  requestId: string,
): void {
  deps.logger.warn(
    {
      requestId,
      ownerType: revoked.owner.type,
      ownerId: revoked.owner.id,
      tokenKind: revoked.kind,
      tokenRowId: revoked.id,
      url: leak.url,
      emailed: revoked.emailed,
    },
    'leaked token revoked (reported by GitHub secret scanning); notify its owner',
  );
}
