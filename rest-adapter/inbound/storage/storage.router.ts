import { readRawBody } from '../raw-body.js';
import express, { type Request, type Response } from 'express';
import { ResourceNotFound } from '../../../kit/errors.js';
import type { Logger } from '../../../kit/logger.js';
import { ANONYMOUS } from '../../../kit/principal.js';
import { FILE_CHUNK_BYTES, FILE_MAX_PART_BYTES, STORAGE_PATH_PREFIX } from '../../../subgraphs/billing/contract.js';
import type { GatewayClient } from '../../upstream/gateway-client.js';
import type { OperationDocuments } from '../../v1/operations.js';
import { linkSignature } from '../../v1/validation.js';
import { sendError } from '../../v1/wire-errors.js';

export interface StorageRouterDependencies {
  gateway: GatewayClient;
  operations: OperationDocuments;
  logger: Logger;
}

export const UPLOAD_PART_PATH = `${STORAGE_PATH_PREFIX}/:id/parts/:number`;
export const DOWNLOAD_PATH = `${STORAGE_PATH_PREFIX}/:id`;

/** A failed operation, carrying its GraphQL error to `sendError` (Polar's wire shapes). */
class OperationFailed extends Error {
  constructor(readonly error: unknown) {
    super('operation failed');
  }
}

/**
 * The service's stand-in for S3 presigned URLs (subgraphs/billing/files/file-links.ts): `PUT` a part's
 * raw bytes to its signed upload link, `GET` a file through its signed download link. Mounted before
 * the JSON parser (app.ts `rawBodyRouters`): the body is bytes. No bearer: the link is the credential,
 * checked by billing; the bytes travel as base64 slices of 512 KiB (one internal request each, within
 * the distributed topology's 1 MiB limit), so a download is streamed slice by slice, never held whole.
 */
export function createStorageRouter(deps: StorageRouterDependencies): express.Router {
  const router = express.Router();
  const run = async (req: Request, operation: string, variables: Record<string, unknown>): Promise<any> => {
    const result = await deps.gateway.execute(
      { query: deps.operations.source(operation), operationName: operation, variables },
      ANONYMOUS,
      req.requestId,
    );
    if (result.errors?.length || !result.data) throw new OperationFailed(result.errors?.[0]);
    return result.data;
  };
  const fail = (req: Request, res: Response, error: unknown) => {
    const cause = error instanceof OperationFailed ? error.error : error;
    const status = (cause as { extensions?: { http?: { status?: number } } })?.extensions?.http?.status;
    if (!(error instanceof OperationFailed) || !status || status >= 500)
      deps.logger.error({ err: cause, requestId: req.requestId }, 'storage request failed');
    if (res.headersSent) res.destroy();
    else sendError(res, cause);
  };

  const readBytes = readRawBody(FILE_MAX_PART_BYTES);

  router.put(UPLOAD_PART_PATH, readBytes, async (req: Request, res: Response) => {
    try {
      const link = linkOf(req, Number(req.params.number));
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const chunks = Math.max(1, Math.ceil(body.length / FILE_CHUNK_BYTES));
      for (let seq = 0; seq < chunks; seq++) {
        const data = body.subarray(seq * FILE_CHUNK_BYTES, (seq + 1) * FILE_CHUNK_BYTES).toString('base64');
        await run(req, 'FileStorageStoreChunk', { link, seq, data });
      }
      const sealed = await run(req, 'FileStorageSealPart', { link, chunks });
      res.set('ETag', sealed.sealFilePart.etag);
      res.set('x-amz-checksum-sha256', sealed.sealFilePart.checksumSha256Base64);
      res.set('Access-Control-Expose-Headers', 'ETag');
      res.status(200).end();
    } catch (error) {
      fail(req, res, error);
    }
  });

  router.get(DOWNLOAD_PATH, async (req: Request, res: Response) => {
    try {
      const link = linkOf(req, 0);
      const { fileDownload: head } = await run(req, 'FileStorageDownload', { link });
      // A customer's link (it names its grant) counts one download, before any byte is sent.
      if (link.grantId) await run(req, 'FileStorageCountDownload', { link });
      res.status(200);
      res.type(head.mimeType || 'application/octet-stream');
      res.set('Content-Length', String(head.size));
      res.set('Content-Disposition', contentDisposition(head.name));
      if (head.checksumSha256Base64) res.set('x-amz-checksum-sha256', head.checksumSha256Base64);
      let cursor: { part: number; seq: number } | null = { part: 0, seq: 0 };
      while (cursor) {
        const { fileChunk }: { fileChunk: { data: string; nextPart: number | null; nextSeq: number | null } } =
          await run(req, 'FileStorageChunk', { link, ...cursor });
        if (fileChunk.data && !res.write(Buffer.from(fileChunk.data, 'base64')))
          await new Promise(resolve => res.once('drain', resolve));
        cursor = fileChunk.nextPart === null ? null : { part: fileChunk.nextPart, seq: fileChunk.nextSeq ?? 0 };
      }
      res.end();
    } catch (error) {
      fail(req, res, error);
    }
  });
  return router;
}

/** The link's claims from the path and query; anything malformed is simply not a valid link (404). */
function linkOf(req: Request, part: number) {
  const query = new URL(req.originalUrl, 'http://local').searchParams;
  const expires = Number(query.get('expires'));
  const signature = linkSignature(query.get('signature') ?? '');
  const fileId = String(req.params.id);
  if (!/^[0-9a-f-]{36}$/i.test(fileId) || !Number.isSafeInteger(part) || part < 0 || part > 10_000)
    throw new ResourceNotFound();
  const grant = query.get('grant');
  const grantId = grant && /^[0-9a-f-]{36}$/i.test(grant) ? grant : null;
  return { fileId, part, expires: Number.isSafeInteger(expires) ? expires : 0, grantId, signature };
}

/** `attachment` with the name in ASCII and in full (RFC 6266 / 5987). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
