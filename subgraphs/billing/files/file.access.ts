import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the file operations (`rest-adapter/v1/routes/files.routes.ts`). */
export const FILES_READ = coreApiRule('files:read', 'files:write');
export const FILES_WRITE = coreApiRule('files:write');

/**
 * The storage operations behind signed links (`rest-adapter/inbound/storage/`): anyone holding a valid,
 * unexpired link; billing checks the link's signature (file-links.ts), not a principal.
 */
export const FILE_LINK_HOLDER: AccessRule = { subjects: ['anonymous'], scopes: [] };
