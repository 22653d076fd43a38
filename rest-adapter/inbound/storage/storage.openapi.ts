import { type Json, jsonContent, refs, schemaRef } from '../../v1/openapi/wire-schemas.js';

/** The storage routes of signed file links (storage.router.ts), which have no route table entry. */
const linkParameters = (withPart: boolean): Json[] => [
  { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
  ...(withPart
    ? [{ name: 'number', in: 'path', required: true, description: 'The part number', schema: { type: 'integer' } }]
    : []),
  {
    name: 'expires',
    in: 'query',
    required: true,
    description: 'Unix time the link expires',
    schema: { type: 'integer' },
  },
  { name: 'signature', in: 'query', required: true, description: 'The link signature', schema: { type: 'string' } },
];

const linkErrors = refs([
  [403, 'Forbidden'],
  [404, 'NotFound'],
]);

export const storagePaths: Record<string, Json> = {
  '/storage/files/{id}/parts/{number}': {
    put: {
      operationId: 'storage:upload_part',
      summary: 'Upload the bytes of one part of a file',
      description:
        'The `url` of a part in the answer of `POST /v1/files/`. No bearer: the signed link is the credential ' +
        '(valid one hour). The body is the raw bytes of the part (at most 16 MiB); they must fill the part’s ' +
        'declared range and, when it declared one, match its `checksum_sha256_base64` (400 otherwise). Answers ' +
        '200 with the part’s `ETag`, to send in `POST /v1/files/{id}/uploaded`. A part may be sent again until ' +
        'the upload is completed.',
      tags: ['files'],
      security: [],
      parameters: linkParameters(true),
      requestBody: {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      responses: {
        200: {
          description: 'Stored',
          headers: {
            ETag: { schema: { type: 'string' }, description: 'The part’s ETag' },
            'x-amz-checksum-sha256': { schema: { type: 'string' }, description: 'SHA-256 of the part (base64)' },
          },
        },
        ...refs([[400, 'BadRequest']]),
        ...linkErrors,
        413: { description: 'The part is larger than 16 MiB', content: jsonContent(schemaRef('RoutingError')) },
      },
    },
  },
  '/storage/files/{id}': {
    get: {
      operationId: 'storage:download',
      summary: 'Download a file through a signed link',
      description:
        'A short-lived link handed out for a downloadable file (the benefits and the customer portal sign ' +
        'them). No bearer: the signed link is the credential. A tampered or expired link is 403; a deleted file 404.',
      tags: ['files'],
      security: [],
      parameters: linkParameters(false),
      responses: {
        200: {
          description: 'The file’s bytes, as an attachment with its name and media type',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        ...linkErrors,
      },
    },
  },
};
