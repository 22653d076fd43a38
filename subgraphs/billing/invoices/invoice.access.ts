import type { AccessRule } from '../../../kit/graphql/authorize.js';

/**
 * The invoice file (`GET /v1/orders/{id}/invoice/pdf`): anyone holding a signed link, signed in or
 * not, as Polar's S3 presigned links are (the signature is the credential).
 */
export const INVOICE_FILE: AccessRule = { subjects: ['anonymous'], scopes: [] };
