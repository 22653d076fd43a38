import { z } from 'zod';
import {
  CUSTOMER_PORTAL_READ,
  downloadableWire,
  FILES_READ,
  FILES_WRITE,
  fileUploadWire,
  fileWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toInput, toWire } from './common.js';
import {
  downloadableResponse,
  fileCreateBody,
  filePatchBody,
  fileResponse,
  fileUploadedBody,
  fileUploadResponse,
} from './files.schemas.js';
import type { Route } from './route.js';

/** Files of the downloadables benefit. The bytes travel through signed links (rest-adapter/inbound/storage/). */
export const fileRoutes: Route[] = [
  {
    operationId: 'files:list',
    method: 'get',
    path: '/v1/files/',
    summary: 'List files',
    tag: 'files',
    access: FILES_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      ids: z.array(z.uuid()).optional(),
      ...pageQuery,
    }),
    operation: 'FilesList',
    variables: ({ query }) => ({
      organizationId: query.organization_id ?? null,
      ids: query.ids ?? null,
      page: query.page,
      limit: query.limit,
    }),
    result: data => ({ items: data.files.items.map(fileWire), pagination: toWire(data.files.pagination) }),
    status: 200,
    response: listOf(fileResponse),
  },
  {
    operationId: 'files:create',
    method: 'post',
    path: '/v1/files/',
    summary: 'Create a file',
    description:
      'Declares the file and its upload plan (`upload.parts`: consecutive byte ranges, `chunk_end` exclusive, ' +
      'at most 16 MiB each; files up to 1 GiB). Answers a signed link per part: PUT the part’s bytes there ' +
      '(its answer carries the part’s `ETag`), then complete the upload with `POST /v1/files/{id}/uploaded`.',
    tag: 'files',
    access: FILES_WRITE,
    body: fileCreateBody,
    operation: 'FilesCreate',
    variables: ({ body }) => {
      const { upload, ...rest } = body;
      return {
        input: toInput({
          ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
          parts: upload.parts,
        }),
      };
    },
    result: data => fileUploadWire(data.createFile),
    status: 201,
    response: fileUploadResponse,
  },
  {
    operationId: 'files:uploaded',
    method: 'post',
    path: '/v1/files/{id}/uploaded',
    summary: 'Complete a file upload',
    description:
      'Every declared part must be stored with the ETag its PUT answered, and the whole file must hash to the ' +
      '`checksum_sha256_base64` given at creation; otherwise 422, and nothing changes.',
    tag: 'files',
    access: FILES_WRITE,
    params: idParams,
    body: fileUploadedBody,
    operation: 'FilesUploaded',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(body) }),
    result: data => fileWire(data.completeFileUpload),
    status: 200,
    response: fileResponse,
    errors: [404],
  },
  {
    operationId: 'files:update',
    method: 'patch',
    path: '/v1/files/{id}',
    summary: 'Update a file',
    tag: 'files',
    access: FILES_WRITE,
    params: idParams,
    body: filePatchBody,
    operation: 'FilesUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(body) }),
    result: data => fileWire(data.updateFile),
    status: 200,
    response: fileResponse,
    errors: [404],
  },
  {
    operationId: 'files:delete',
    method: 'delete',
    path: '/v1/files/{id}',
    summary: 'Delete a file',
    tag: 'files',
    access: FILES_WRITE,
    params: idParams,
    operation: 'FilesDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
  {
    operationId: 'customer_portal:downloadables:list',
    method: 'get',
    path: '/v1/customer-portal/downloadables/',
    summary: "List the customer's downloadables",
    description:
      'The files of the downloadables benefits the customer holds now, each with a signed download link ' +
      '(`file.download.url`, valid for an hour). A revoked grant’s files are no longer listed.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({ benefit_id: z.array(z.uuid()).optional(), ...pageQuery }),
    operation: 'CustomerPortalDownloadablesList',
    variables: ({ query }) => ({ benefitId: query.benefit_id ?? null, page: query.page, limit: query.limit }),
    result: data => ({
      items: data.customerPortalDownloadables.items.map(downloadableWire),
      pagination: toWire(data.customerPortalDownloadables.pagination),
    }),
    status: 200,
    response: listOf(downloadableResponse),
  },
];
