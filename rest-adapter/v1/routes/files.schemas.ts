import { z } from 'zod';

/** Wire shapes of `/v1/files/` (Polar's DownloadableFileCreate, FileUpload, FileUploadCompleted, FileRead). */
const dateTime = z.iso.datetime({ offset: true });
const byteOffset = z.number().int().gte(0).lte(Number.MAX_SAFE_INTEGER);

export const fileCreateBody = z.object({
  organization_id: z.uuid().nullish(),
  name: z.string(),
  mime_type: z.string(),
  size: byteOffset,
  checksum_sha256_base64: z.string().nullish(),
  upload: z.object({
    parts: z
      .array(
        z.object({
          number: z.number().int().gte(1).lte(10_000),
          chunk_start: byteOffset,
          chunk_end: byteOffset,
          checksum_sha256_base64: z.string().nullish(),
        }),
      )
      .max(10_000),
  }),
  service: z.literal('downloadable'),
  version: z.string().nullish(),
});

export const fileUploadedBody = z.object({
  id: z.string(),
  path: z.string(),
  parts: z
    .array(
      z.object({
        number: z.number().int().gte(1).lte(10_000),
        checksum_etag: z.string(),
        checksum_sha256_base64: z.string().nullable(),
      }),
    )
    .max(10_000),
});

export const filePatchBody = z.object({ name: z.string().nullish(), version: z.string().nullish() });

const fileBase = {
  id: z.uuid(),
  organization_id: z.uuid(),
  name: z.string(),
  path: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  storage_version: z.string().nullable(),
  checksum_etag: z.string().nullable(),
  checksum_sha256_base64: z.string().nullable(),
  checksum_sha256_hex: z.string().nullable(),
  last_modified_at: dateTime.nullable(),
  version: z.string().nullable(),
  service: z.literal('downloadable'),
  is_uploaded: z.boolean(),
  size_readable: z.string(),
};

export const fileResponse = z.object({ ...fileBase, created_at: dateTime, flagged_malicious_at: dateTime.nullable() });

/** Polar's BenefitDownloadableFile: a file with its download statistics. */
export const benefitDownloadableFileResponse = fileResponse.extend({
  downloaders: z.number().int().describe('Distinct customers who downloaded the file.'),
  downloads: z.number().int().describe('Downloads of the file, all customers together.'),
});

export const fileUploadResponse = z.object({
  ...fileBase,
  upload: z.object({
    id: z.string(),
    path: z.string(),
    parts: z.array(
      z.object({
        number: z.number().int(),
        chunk_start: z.number().int(),
        chunk_end: z.number().int(),
        checksum_sha256_base64: z.string().nullable(),
        url: z.string().describe('Signed link to PUT the bytes of the part to; answers its ETag.'),
        expires_at: dateTime,
        headers: z.record(z.string(), z.string()),
      }),
    ),
  }),
});

/** Polar's DownloadableRead (Customer Portal): a file of a live downloadables grant and its signed link. */
export const downloadableResponse = z.object({
  id: z.uuid(),
  benefit_id: z.uuid(),
  file: z.object({
    ...fileBase,
    download: z.object({
      url: z.string().describe('Signed link to GET the bytes from; it expires at `expires_at`.'),
      headers: z.record(z.string(), z.string()),
      expires_at: dateTime,
    }),
  }),
});
