import { z } from 'zod';
import { CUSTOMER_PORTAL_READ, INVOICE_FILE, ORDERS_READ } from '../../../subgraphs/billing/contract.js';
import { linkSignature } from '../validation.js';
import { idParams, queryInteger } from './common.js';
import type { Route } from './route.js';

/** Polar's OrderReceipt and CustomerOrderReceipt. */
const orderReceipt = z.object({
  url: z.string().meta({ description: 'Signed link to the receipt PDF, valid for an hour.' }),
});

const GET =
  'A link to the receipt PDF of a paid order, signed and valid for an hour. The receipt is rendered when the ' +
  'link is opened (never a 202). 404 unknown order; 404 `ReceiptNotAllocated` when no money was taken for the ' +
  'order (not paid yet, or free).';

/** Receipts of paid orders: the link (Core API and customer portal) and the file a link opens (docs/receipts.md). */
export const receiptRoutes: Route[] = [
  {
    operationId: 'orders:receipt',
    method: 'get',
    path: '/v1/orders/{id}/receipt',
    summary: 'Get an order receipt',
    description: GET,
    tag: 'orders',
    access: ORDERS_READ,
    params: idParams,
    operation: 'OrdersReceipt',
    variables: ({ params }) => ({ id: params.id }),
    result: data => data.orderReceipt,
    status: 200,
    response: orderReceipt,
    errors: [404],
  },
  {
    operationId: 'customer_portal:orders:receipt',
    method: 'get',
    path: '/v1/customer-portal/orders/{id}/receipt',
    summary: "Get the customer's order receipt",
    description: GET,
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalOrdersReceipt',
    variables: ({ params }) => ({ id: params.id }),
    result: data => data.customerPortalOrderReceipt,
    status: 200,
    response: orderReceipt,
    errors: [404],
  },
  {
    operationId: 'orders:receipt_file',
    method: 'get',
    path: '/v1/orders/{id}/receipt/pdf',
    summary: 'Download a receipt PDF (signed link)',
    description:
      'The PDF behind the `url` of `GET /v1/orders/{id}/receipt`: no credential, the signature is one. 403 ' +
      '`InvalidReceiptLink` when the signature does not match or the link has expired.',
    tag: 'orders',
    access: INVOICE_FILE,
    params: idParams,
    query: z.object({ expires: queryInteger, signature: z.string().max(200).transform(linkSignature) }),
    operation: 'ReceiptFile',
    variables: ({ params, query }) => ({ orderId: params.id, expires: query.expires, signature: query.signature }),
    result: data => Buffer.from(data.receiptFile.pdf as string, 'base64'),
    status: 200,
    contentType: 'application/pdf',
    response: z.string().meta({ format: 'binary' }),
    errors: [403],
  },
];
