import { z } from 'zod';
import { CUSTOMER_PORTAL_READ, INVOICE_FILE, ORDERS_READ } from '../../../subgraphs/billing/contract.js';
import { linkSignature } from '../validation.js';
import { idParams, queryInteger } from './common.js';
import type { Route } from './route.js';

/** Polar's OrderInvoice and CustomerOrderInvoice. */
const orderInvoice = z.object({ url: z.string().meta({ description: 'Signed link to the PDF, valid for an hour.' }) });

const GENERATE =
  'Generates the invoice PDF (seller, buyer, number, date, lines, discount, tax, totals) and answers 202 with a ' +
  'JSON `null`. Invoices are never generated automatically. Generating again after the billing details changed ' +
  'replaces the PDF; with the same details it changes nothing. 404 unknown order; 409 `OrderNotEligibleForInvoice` ' +
  'for a draft or void order; 422 `MissingInvoiceBillingDetails` (string `detail`) without a billing name and address.';
const GET =
  'A link to the invoice PDF, signed and valid for an hour. 404 `InvoiceDoesNotExist` until the invoice is generated.';

/** Invoices of orders: generate and link (Core API and customer portal), and the file a link opens. */
export const invoiceRoutes: Route[] = [
  {
    operationId: 'orders:generate_invoice',
    method: 'post',
    path: '/v1/orders/{id}/invoice',
    summary: 'Generate an order invoice',
    description: GENERATE,
    tag: 'orders',
    access: ORDERS_READ,
    params: idParams,
    operation: 'OrdersGenerateInvoice',
    variables: ({ params }) => ({ id: params.id }),
    result: () => null,
    status: 202,
    response: z.null(),
    errors: [404, 409],
  },
  {
    operationId: 'orders:invoice',
    method: 'get',
    path: '/v1/orders/{id}/invoice',
    summary: 'Get an order invoice',
    description: GET,
    tag: 'orders',
    access: ORDERS_READ,
    params: idParams,
    operation: 'OrdersInvoice',
    variables: ({ params }) => ({ id: params.id }),
    result: data => data.orderInvoice,
    status: 200,
    response: orderInvoice,
    errors: [404],
  },
  {
    operationId: 'customer_portal:orders:generate_invoice',
    method: 'post',
    path: '/v1/customer-portal/orders/{id}/invoice',
    summary: "Generate the customer's order invoice",
    description: GENERATE,
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalOrdersGenerateInvoice',
    variables: ({ params }) => ({ id: params.id }),
    result: () => null,
    status: 202,
    response: z.null(),
    errors: [404, 409],
  },
  {
    operationId: 'customer_portal:orders:invoice',
    method: 'get',
    path: '/v1/customer-portal/orders/{id}/invoice',
    summary: "Get the customer's order invoice",
    description: GET,
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalOrdersInvoice',
    variables: ({ params }) => ({ id: params.id }),
    result: data => data.customerPortalOrderInvoice,
    status: 200,
    response: orderInvoice,
    errors: [404],
  },
  {
    operationId: 'orders:invoice_file',
    method: 'get',
    path: '/v1/orders/{id}/invoice/pdf',
    summary: 'Download an invoice PDF (signed link)',
    description:
      'The PDF behind the `url` of `GET /v1/orders/{id}/invoice`: no credential, the signature is one. 403 ' +
      '`InvalidInvoiceLink` when the signature does not match or the link has expired.',
    tag: 'orders',
    access: INVOICE_FILE,
    params: idParams,
    query: z.object({ expires: queryInteger, signature: z.string().max(200).transform(linkSignature) }),
    operation: 'InvoiceFile',
    variables: ({ params, query }) => ({ orderId: params.id, expires: query.expires, signature: query.signature }),
    result: data => Buffer.from(data.invoiceFile as string, 'base64'),
    status: 200,
    contentType: 'application/pdf',
    response: z.string().meta({ format: 'binary' }),
    errors: [403],
  },
];
