import { snakeKeys } from '../../../kit/case.js';
import { plain } from '../shared/wire.js';

type Wire = Record<string, any>;

const FILE_KEYS = [
  'id',
  'organization_id',
  'name',
  'path',
  'mime_type',
  'size',
  'storage_version',
  'checksum_etag',
  'checksum_sha256_base64',
  'checksum_sha256_hex',
  'last_modified_at',
  'version',
  'service',
  'is_uploaded',
  'created_at',
  'size_readable',
];

const pick = (wire: Wire, keys: string[]): Wire => Object.fromEntries(keys.map(k => [k, wire[k] ?? null]));

/** Polar's DownloadableFileRead from a `FileType` or the GraphQL result of schema/operations/files.graphql. */
export function fileWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...pick(wire, FILE_KEYS), flagged_malicious_at: wire.flagged_malicious_at ?? null };
}

/** Polar's BenefitDownloadableFile: the file and its download statistics. */
export function benefitDownloadableFileWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  return { ...fileWire(data), downloaders: wire.downloaders ?? 0, downloads: wire.downloads ?? 0 };
}

/** Polar's FileUpload: the file (without `created_at`) and its upload plan. */
export function fileUploadWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  const { created_at: _c, ...file } = pick(wire, FILE_KEYS);
  const upload = wire.upload ?? {};
  return {
    ...file,
    upload: {
      id: upload.id,
      path: upload.path,
      parts: (upload.parts ?? []).map((p: Wire) => ({ ...p, headers: p.headers ?? {} })),
    },
  };
}

/** Polar's DownloadableRead: the downloadable's id, its benefit, and the file (FileDownload) with its link. */
export function downloadableWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(plain(data));
  const file = wire.file ?? {};
  const { created_at: _c, ...fields } = pick(file, FILE_KEYS);
  const download = file.download ?? {};
  return {
    id: wire.id,
    benefit_id: wire.benefit_id,
    file: {
      ...fields,
      download: { url: download.url, headers: download.headers ?? {}, expires_at: download.expires_at },
    },
  };
}
