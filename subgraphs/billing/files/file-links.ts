import { createHmac, timingSafeEqual } from 'node:crypto';
import { NotPermitted } from '../../../kit/errors.js';

/**
 * Signed links to a file's bytes, the service's stand-in for S3 presigned URLs: an upload link per
 * declared part (`PUT /storage/files/{id}/parts/{number}`) and a download link
 * (`GET /storage/files/{id}`), each carrying its expiry and an HMAC-SHA256 of purpose, file, part and
 * expiry under a key derived from the service secret. Checked in billing (the REST adapter of the
 * distributed topology does not hold the secret). Polar's presigned URLs live 3600 s; so do these by default.
 */
export const FILE_LINK_TTL_SECONDS = 3600;
export const STORAGE_PATH_PREFIX = '/storage/files';

export type LinkPurpose = 'upload' | 'download';

export interface LinkSigning {
  secret: string;
  publicUrl: string;
}

export interface SignedLink {
  url: string;
  expiresAt: Date;
}

export interface LinkClaim {
  purpose: LinkPurpose;
  fileId: string;
  /** The part for an upload link; 0 for a download. */
  part: number;
  /** Unix seconds. */
  expires: number;
  /**
   * The downloadables grant a customer's download link was handed out for (signed with the rest), so
   * following it counts one download of the grant's file; absent on the merchant's and upload links.
   */
  grantId?: string | null;
  signature: string;
}

const keyCache = new Map<string, Buffer>();
function linkKey(secret: string): Buffer {
  let key = keyCache.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('polar-compatible-billing/file-links/v1').digest();
    if (keyCache.size < 16) keyCache.set(secret, key);
  }
  return key;
}

function sign(secret: string, claim: Omit<LinkClaim, 'signature'>): string {
  return createHmac('sha256', linkKey(secret))
    .update(
      `${claim.purpose}\n${claim.fileId}\n${claim.part}\n${claim.expires}${claim.grantId ? `\n${claim.grantId}` : ''}`,
    )
    .digest('base64url');
}

function link(signing: LinkSigning, path: string, claim: Omit<LinkClaim, 'signature'>): SignedLink {
  const query = new URLSearchParams({
    expires: String(claim.expires),
    ...(claim.grantId ? { grant: claim.grantId } : {}),
    signature: sign(signing.secret, claim),
  });
  return {
    url: `${signing.publicUrl.replace(/\/+$/, '')}${path}?${query.toString()}`,
    expiresAt: new Date(claim.expires * 1000),
  };
}

const expiry = (now: Date, ttlSeconds: number) =>
  Math.floor(now.getTime() / 1000) + Math.max(1, Math.floor(ttlSeconds));

/** Where the client PUTs the bytes of one declared part. */
export function signedUploadUrl(
  signing: LinkSigning,
  fileId: string,
  part: number,
  now: Date,
  ttlSeconds = FILE_LINK_TTL_SECONDS,
): SignedLink {
  const claim = { purpose: 'upload' as const, fileId, part, expires: expiry(now, ttlSeconds) };
  return link(signing, `${STORAGE_PATH_PREFIX}/${fileId}/parts/${part}`, claim);
}

/**
 * A short-lived link that downloads the file's bytes, for whoever may hand it out (the benefits'
 * downloadables, the customer portal): the link itself is the credential until it expires.
 */
export function signedDownloadUrl(
  fileId: string,
  options: LinkSigning & { now: Date; ttlSeconds?: number; grantId?: string },
): SignedLink {
  const claim = {
    purpose: 'download' as const,
    fileId,
    part: 0,
    expires: expiry(options.now, options.ttlSeconds ?? FILE_LINK_TTL_SECONDS),
    grantId: options.grantId ?? null,
  };
  return link(options, `${STORAGE_PATH_PREFIX}/${fileId}`, claim);
}

export class InvalidFileLink extends NotPermitted {
  constructor() {
    super('This link is invalid or has expired.');
  }
}

/** @throws InvalidFileLink when the signature does not match or the link has expired. */
export function verifyLink(secret: string, claim: LinkClaim, now: Date): void {
  const expected = Buffer.from(sign(secret, claim));
  const given = Buffer.from(claim.signature);
  const valid = expected.length === given.length && timingSafeEqual(expected, given);
  if (!valid || !Number.isSafeInteger(claim.expires) || claim.expires * 1000 <= now.getTime())
    throw new InvalidFileLink();
}
